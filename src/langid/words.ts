/**
 * Very frequent function words (articles, pronouns, auxiliaries, conjunctions, prepositions, negation) of the
 * Latin-script languages the identifier knows. A short text rarely holds enough letters for character n-grams to
 * be trusted, but one or two of these words say a great deal: "Das Hotel war super!" is German because of "das"
 * and "war", "We love Bellagio" English because of "we". Written for this engine from general knowledge of each
 * language (no corpus was copied); lower case, NFC. Words shared by several languages are listed in each, and
 * count for each (a tie between the configuration's language and another keeps the configuration's).
 */

const list = (words: string): ReadonlySet<string> => new Set(words.trim().split(/\s+/).map((w) => w.normalize('NFC')))

/** ISO 639-1 code -> function words. Only languages that share a script with others need them. */
export const FUNCTION_WORDS: ReadonlyMap<string, ReadonlySet<string>> = new Map([
  ['en', list(`the a an and or but of to in on at for with from by about into over after is are was were be been
    being am i you he she it we they me him us them my your his her its our their this that these those not no do does
    did don doesn didn isn wasn aren weren wouldn couldn shouldn haven hasn have has had will would can could should
    shall may might must there here what which who whom whose how why when where very so just all any some as if than
    then too also only more most much many such because while until out up off again ve ll`)],
  ['de', list(`der die das den dem des ein eine einen einem einer eines und oder aber nicht kein keine keinen ist sind
    war waren bin bist hat haben hatte hatten wird werden wurde ich du er sie es wir ihr mich mir dich dir uns euch
    sein seine ihre mein meine dein deine unser unsere auf mit von zu zum zur im ins vom bei nach aus für über unter
    vor durch gegen ohne sehr auch noch schon nur wie wer wo wenn dass weil doch hier dort dann denn ja nein nichts
    alles viel gibt man sich diese dieser dieses`)],
  ['nl', list(`de het een en of maar niet geen is zijn was waren ben bent heeft hebben had wordt worden werd ik je jij
    hij zij ze wij we jullie mij ons onze mijn jouw uw hun haar hem van op te aan met voor naar bij uit door om tot dat
    die dit deze wat wie waar hoe als dan ook nog wel heel erg zeer er hier daar toch omdat niets alles veel zo kan
    moet`)],
  ['fr', list(`le la les un une des du de et ou mais ne pas non est sont était étaient suis être avoir ai avons avez
    ont avait je tu il elle nous vous ils elles on te se moi toi lui leur leurs mon ma mes ton ta tes son sa ses notre
    nos votre vos ce cet cette ces qui que quoi dont où dans sur sous avec pour par chez sans vers très bien aussi plus
    moins tout tous toute toutes comme donc car alors déjà encore ici là au aux qu c j l`)],
  ['es', list(`el la los las un una unos unas y o pero no ni es son era eran fue fueron está están estaba estoy soy
    somos ser estar hay ha he han había yo tú él ella nosotros ellos ellas me te se nos os le les lo mi mis tu tus su
    sus nuestro nuestra este esta esto estos estas ese esa eso que qué quien donde dónde como cómo cuando de del al en
    con por para sin sobre entre hasta desde muy más menos también ya todo todos toda todas mucho bien aquí allí porque
    pues sí`)],
  ['pt', list(`o a os as um uma uns umas e ou mas não nem é são era eram foi foram está estão estava estou sou somos
    ser estar há tem têm tinha eu ele ela nós eles elas me te se nos lhe lhes meu minha meus minhas teu tua seu sua
    seus suas nosso nossa este esta isto estes estas esse essa isso aquele aquela que quem onde como quando de do da dos
    das no na nas ao aos à em com por para pelo pela sem sobre entre até desde muito mais menos também já todo todos
    toda todas bem aqui ali porque pois sim você vocês`)],
  ['it', list(`il lo la i gli le un uno una e ed o ma non né è sono era erano fu stato stata essere avere ho hai ha
    abbiamo avete hanno aveva io tu lui lei noi voi loro mi ti si ci vi ne mio mia miei mie tuo tua suo sua suoi nostro
    nostra questo questa questi queste quello quella che chi cui dove come quando di del dello della dei degli delle al
    allo alla ai agli alle da dal dalla in nel nella nei con su sul sulla per tra fra senza molto più meno anche già
    tutto tutti tutta tutte bene qui qua lì là perché se sì`)],
  ['ro', list(`și şi sau dar nu este sunt era erau fost am ai au avea eu tu el ea noi voi ei ele mă te se ne vă îl o
    un una unei unui lui lor meu mea mei mele tău său nostru noastră acest această acesta aceasta acel acea care ce cine
    unde cum când de din la în pe cu pentru prin fără despre între până foarte mai mult toate tot toți bine aici acolo
    dacă da`)],
  ['sv', list(`och eller men inte ingen är var varit vara har hade ska skulle kan kunde jag du han hon den det vi ni de
    mig dig honom henne oss er dem min mitt mina din ditt dina sin sitt sina vår vårt våra en ett på i av till från med
    för om under över efter mycket också bara så som att vad vem här där nu då när alla allt`)],
  ['da', list(`og eller men ikke ingen er var været være har havde skal skulle kan kunne jeg du han hun den det vi i de
    mig dig ham hende os jer dem min mit mine din dit dine sin sit sine vores en et på af til fra med for om under over
    efter meget også kun så som at hvad hvem hvor her der nu da når alle alt`)],
  ['fi', list(`ja tai mutta ei en et emme ette eivät on ovat oli olivat olla ole minä sinä hän me te he minun sinun
    hänen meidän teidän heidän se ne tämä tuo nämä mikä kuka missä miten kun jos että kanssa ilman myös vain hyvin
    erittäin paljon kaikki nyt sitten täällä siellä koska vielä jo`)],
  ['pl', list(`i w z na do nie się jest są był była było byli jestem jesteś to ten ta te tego tej tym jak co kto gdzie
    kiedy że ale lub albo czy już jeszcze bardzo tylko też także oraz od po przez dla bez pod nad przed za o u mnie mi ja
    ty on ona ono my wy oni one jego jej ich mój moja moje twój nasz wasz tak nic wszystko`)],
  ['cs', list(`a i v ve na do z ze s se je jsou byl byla bylo byli jsem jsi to ten ta ty toho tom jak co kdo kde kdy že
    ale nebo už ještě velmi jen také od po pro bez pod nad před za o u mě mi já on ona ono my vy oni jeho její jejich
    můj moje náš váš tak nic všechno není nejsou`)],
  ['hu', list(`a az egy és vagy de nem is van vannak volt voltak lesz vagyok ez ezt azt ezek azok mi ki hol hogy hogyan
    mikor ha mert már még nagyon csak meg el fel le be sem semmi minden én te ő ti ők nekem neked neki velem pedig itt
    ott`)],
  ['tr', list(`ve veya ama fakat değil yok var bir bu şu o ben sen biz siz onlar beni seni onu bizi için ile gibi kadar
    daha çok en de da mi mı mu mü ne nasıl neden nerede kim ki her hiç şey ise olarak olan oldu sonra önce çünkü eğer`)],
  ['id', list(`dan atau tetapi tapi tidak bukan adalah ini itu yang di ke dari dengan untuk pada dalam oleh akan sudah
    telah belum sangat juga hanya saya aku kamu anda dia mereka kami kita nya ada bisa dapat lebih karena jika kalau
    seperti tersebut bagi sebagai`)],
  ['vi', list(`và hoặc nhưng không là có của cho với trong ngoài này đó các những một tôi bạn anh chị em chúng họ nó
    đã đang sẽ rất cũng được bị từ đến khi nếu vì thì mà ở lại nhiều`)],
])
