/** Help texts and exit codes of the `textengine` command (no imports, so `--help` stays fast). */

/** Exit codes of every command. */
export const EXIT = Object.freeze({
  /** Done. */
  ok: 0,
  /** An analysis failed (an engine error: document too long, language not licensed, …). */
  analysis: 1,
  /** Bad command line: unknown command or flag, missing argument. */
  usage: 2,
  /** An input file, configuration file or setting cannot be read or is malformed. */
  input: 3,
})

const EXIT_CODES = `Exit codes: 0 ok, 1 analysis error, 2 usage error, 3 input file or configuration error.`

/** `textengine --help`. */
export const USAGE = `Usage: textengine <command> [options]

Commands:
  analyze ["text" ...]     analyse texts and print the output the HTTP API returns (see analyze --help)
  serve [--config FILE]    serve the HTTP API (see serve --help)
  sign METHOD URL          print a curl command with the signed URL and Authorization header (see sign --help)
  --help, -h               this text
  --version, -v            the version

${EXIT_CODES}`

/** `textengine analyze --help`. */
export const ANALYZE_USAGE = `Usage:
  textengine analyze "text"                 analyse one text, print the Detailed output (JSON)
  textengine analyze --file FILE            one document per line of FILE (- for stdin)
  echo "text" | textengine analyze          one document per line of stdin
  textengine analyze --collection ...       analyse all texts together (Discovery output)
Options:
  --config FILE         JSON object of configuration settings to apply (client-compat names)
  --pretty              indent the JSON
  --jsonl               one compact JSON line per document, written as each finishes (stdin is read line by
                        line); a failed document is reported on stderr and the others go on
  --max-length N        characters per document (the account's basic_settings.document_length; default 2048)
  --limit NAME=VALUE    any account limit or license switch, repeatable: a field of billing_settings or
                        basic_settings (bare or prefixed), feature_settings.html_processing,
                        feature_settings.supported_languages, feature_settings.document.<output>,
                        feature_settings.collection.<output>; e.g. --limit document_length=10000
                        --limit supported_languages=English,French --limit feature_settings.document.themes=false
  --server-config FILE  take the limits of the first account of a server configuration file (textengine serve
                        --config); --limit and --max-length override them
  --no-progress         no progress bar (one is drawn on stderr when it is a terminal and there are 2+ documents)
The output is byte for byte what the HTTP API returns for the same text and configuration. Analysis applies
document_length, feature_settings and supported_languages; call, balance and batch limits concern the HTTP API.

${EXIT_CODES}`

/** `textengine sign --help`. */
export const SIGN_USAGE = `Usage: textengine sign METHOD URL [--key KEY --secret SECRET] [--data BODY]

Prints a curl command for METHOD (GET, POST, PUT, DELETE) and the absolute URL, with the oauth parameters added
to the URL and signed, and the Authorization header, as the client SDKs send them.
Options:
  --key KEY         account key (default: API_KEY of the environment)
  --secret SECRET   account secret (default: API_SECRET of the environment)
  --data BODY       request body for curl's --data-binary (JSON text, or @file); adds Content-Type JSON
  --insecure, -k    add curl's -k (self-signed certificate of a development HTTPS server)

${EXIT_CODES}`
