/**
 * US states as news copy writes them: postal codes ("NH", "TX"), and AP style's forms, the eight states it writes in full
 * and its abbreviations of the others ("Calif.", "N.Y."), as datelines ("PARK CITY, Utah (AP)") and party affiliations
 * ("(D-N.Y.)") use them.
 */

/** US state and territory postal codes. */
export const US_POSTAL_CODES: ReadonlySet<string> = new Set(
  'AL AK AZ AR CA CO CT DE DC FL GA HI ID IL IN IA KS KY LA ME MD MA MI MN MS MO MT NE NV NH NJ NM NY NC ND OH OK OR PA RI SC SD TN TX UT VT VA WA WV WI WY PR GU VI'.split(' '),
)

/** The states AP style writes in full. */
export const AP_FULL_STATES: ReadonlySet<string> = new Set(['Alaska', 'Hawaii', 'Idaho', 'Iowa', 'Maine', 'Ohio', 'Texas', 'Utah'])

/** AP style's abbreviations of the other states. */
export const AP_STATE_ABBREVIATIONS: ReadonlySet<string> = new Set([
  'Ala.', 'Ariz.', 'Ark.', 'Calif.', 'Colo.', 'Conn.', 'Del.', 'Fla.', 'Ga.', 'Ill.', 'Ind.', 'Kan.', 'Ky.', 'La.', 'Md.',
  'Mass.', 'Mich.', 'Minn.', 'Miss.', 'Mo.', 'Mont.', 'Neb.', 'Nev.', 'N.H.', 'N.J.', 'N.M.', 'N.Y.', 'N.C.', 'N.D.',
  'Okla.', 'Ore.', 'Pa.', 'R.I.', 'S.C.', 'S.D.', 'Tenn.', 'Vt.', 'Va.', 'Wash.', 'W.Va.', 'Wis.', 'Wyo.',
])
