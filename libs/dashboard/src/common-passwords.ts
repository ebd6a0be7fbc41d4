/**
 * Commonly breached passwords, refused as new dashboard passwords (passwords.ts, NIST SP 800-63B
 * §3.1.1.2: "passwords obtained from previous breach corpuses"). About a thousand of the best-known
 * entries of the public lists of most common passwords (the leaked-password top lists, SplashData's
 * and NordPass' yearly ones), with the French ones (azerty, soleil, doudou, motdepasse, jetaime,
 * first names, football clubs) and the words of this service (ppfile, passeport, prevention),
 * written down here rather than copied from one list. Kept only when they matter to a password of
 * 12 characters or more: whole entries of that length, or entries of 4 letters or more before their
 * trailing digits and punctuation, since `Sunshine2026!` is `sunshine` with a suffix.
 *
 * A TypeScript module rather than a data file: `nest build` ships it without an asset step, like
 * the dashboard's stylesheet (assets/).
 */
const LIST: readonly string[] = [
  '!qaz2wsx 123456a 123456q 123456z 12345qwert 1234abcd 1234qwer 123abc 123asd 123qwe 12qwaszx 1a2b3c4d',
  '1q2w3e 1q2w3e4r 1q2w3e4r5t 1q2w3e4r5t6y 1q2w3e4r5t6y7u 1qaz2wsx 1qaz2wsx3edc a1b2c3 a1b2c3d4 aaaaaa',
  'aaron abcabc abcd1234 abcde123 abcdef abcdefg abcdefgh access access123 access14 adam admin admin123',
  'admin1234 administrateur administrator adrien airforce alain albert alexander alexandre alexandre1',
  'alexis alice allezlesbleus allezlom allezparis always amanda amandine amber america amour amoureuse',
  'amoureux andre andrea andrew android android1 angel angel1 angela angela1 angelo angels anita anna',
  'anne annie anniversaire anonymous anthony anthony1 antoine antoine1 anything aout apple apple1 april',
  'aqwzsx aragorn army arsenal arthur asdasd asdf asdfasdf asdfgh asdfghjk asdfghjkl ashley ashley1',
  'audi audrey august aurelie austin automne autumn autumn1 avengers avril azer1234 azerty azerty1',
  'azerty12 azerty123 azerty1234 azerty2024 azertyazerty azertyqsdf azertyu azertyuiop babe baby baby1',
  'babyboy babygirl backup banane barbara barcelona baseball baseball1 basketball batman batman1',
  'batman123 bayern beach bear bears beatles bebe bebe123 beer believe believer benjamin benjamin1',
  'benzema bernard best1 bestfriend betty beverly beyonce bieber bienvenue bienvenue1 bigboss bigdaddy',
  'billion billy bird birds bisous bitcoin black blackberry blackpink blanc blessed bleu bleublancrouge',
  'blink182 blue bonjour bonjour1 bonjour2024 bonnie bonsoir bordeaux bordeaux33 boss boulot brandon',
  'brenda brian britney brown bruce bryan bunny bureau burger buster butterfly camaro camille camille1',
  'camille2 candy captain caramel carl carmen carol caroline carolyn carrie cash catherine catherine1',
  'cats cedric celine cerise champagne champion changeme changeme123 charles charlie charlotte',
  'charlotte1 cheese cheetah chelsea cheri cherie cheryl chevrolet chevy chicken chloe chocolat',
  'chocolate chocolate1 chouchou christ christian christina christine christine1 christophe christopher',
  'cindy cisco citroen citron claude clement coffee college color colors colour computer computer1',
  'connie cookie cookies corvette cosmos coucou coucou123 cowboy cowboys crypto crystal cynthia dacia',
  'daddy daisy damien daniel daniel1 darling david davidson dawn debian deborah debra december decembre',
  'default demon denise dennis devil diablo diamond diana diane didier dimanche doctor doggy dogs',
  'dollars dolphin donald donkey donna doris dorothy doudou douglas dragon dragon1 dragon123 dragonball',
  'dream dreamer dreams drums ducati eagle earth edith edna edward egalite elaine elise elizabeth ellen',
  'elodie elvis emilie emily eminem emma emma1 employeur entreprise eric eric1 esther ethan ethel euro',
  'euros evelyn everything fabien facebook faith falcon famille family family1 february ferrari fevrier',
  'fiat fireman firewall first florence florian flower flowers flying football football1 football123',
  'ford forever forever1 formation formation1 fortnite foxes fraise francais france frances francois',
  'francoise frank fraternite frederic freedom friday friend friends frodo gabriel galaxy gamer gaming',
  'gandalf gary genesis george gerald ginger gladys gloria godislove goku gold golden golf goodbye',
  'google google1 gotham grace gray green gregory grey griezmann gros guest guillaume guillaume1 guitar',
  'hacked hacker hacking halo harley harley1 harold harrypotter hawk hazel heather heaven heaven1 helen',
  'hell hello hello1 hello123 helloworld henry henry1 hero heroes hiver hiya hobbit hockey hockey1',
  'hogwarts home homework honda honey hope horse horses house hugo hugo1 hulk hunter hunter2 iamthebest',
  'ichliebedich iloveme iloveu iloveyou iloveyou1 iloveyou123 imagine imthebest instagram inter',
  'internet internet1 iphone iphone1 irene ironman isabelle island jack jacob jacqueline jacques jaguar',
  'jane janet janice january janvier jardin jasmine jason jean jean1 jeanlouis jeanmarc jeanne',
  'jeanpierre jeffrey jennifer jennifer1 jeremy jeremy1 jerome jerry jesse jessica jessica1 jessica2',
  'jesus jesus1 jetaime jetaime1 jetaimebeaucoup jeudi joan joker jonathan jonathan1 jordan jordan1',
  'jordan23 jose joseph josephine joshua joshua1 joyce juanita judith judy juillet juin julia julie',
  'julie1 julien julien1 july june justin justin1 justine juventus karen katherine kathleen kathryn',
  'kathy kawasaki keith kelly kenneth kevin kevin1 killer kimberly king king1 kingdom kitten kitty',
  'knight knockknock kobe kyle lamborghini larry laura laura1 laurent lawrence lawyer lebron legend',
  'legends legolas lens leopard lesbleus letmein letmein1 letmein123 letmeinplease liberte lille',
  'lille59 lillian lily linda linkedin linkin linux lion lions lisa liverpool logan login login123 lois',
  'loki lolita lori louis louis1 louise loulou love123 lovely loveme lover lovers loveyou lucas lucas1',
  'lucie lucky lucky1 lucky7 luckyone lundi lyon lyon69 madonna maggie magic magical maison mama maman',
  'manager manchester manon manutd march mardi margaret margaux maria marianne marie marie1 marilyn',
  'marine marine1 mario marjorie mark mars marseille marseille13 martha martine marvel mary master',
  'master1 master123 masterkey mathieu mathilde matrix matthew matthew1 maxime maxime1 mazda mbappe',
  'melanie melissa mercedes merci merci1 mercredi messi metallica michael michael1 michaeljackson',
  'michel michelle michelle1 microsoft milan mildred million minecraft minecraft1 modem mommy monaco',
  'monamour moncoeur monday money money1 monica monique monkey monkey1 monkey12 monkey123 montpellier',
  'moon moonlight mordor morpheus mot2passe motdepasse motdepasse1 motdepasse123 mummy music music1',
  'mustang mypass mypassword nancy nantes nantes44 naruto naruto1 nasa nathalie nathan navy network',
  'never neymar nice nice06 nicholas nicolas nicolas1 nicole ninja nintendo nirvana nissan noah noel',
  'nokia norma nothing nounou nounours november novembre number1 numberone nurse ocean oceane october',
  'octobre office okay olivier olympique onedirection onepiece open opensesame opensesame1 oracle',
  'orange orange1 orchid p@ssw0rd p@ssword pa$$word paie pamela panther papa papa123 paques paradise',
  'paris paris75 parisiensg pascal pass123 pass1234 pass12345 passe passe123 passeport',
  'passeportprevention passord passpass passw0rd passwd password password1 password12 password123',
  'password1234 password12345 password2024 password2025 password2026 passwordpassword passwort pasta',
  'patricia patricia1 patrick patrick1 paul paula pauline pauline1 peggy pepper perso perso123 personal',
  'peter peugeot philippe phoenix phyllis piano pierre pierre1 pikachu pilot pink pirate pirates pizza',
  'planet platini platinum playstation pleaseletmein pogba pokemon pokemon1 police pomme porsche ppfile',
  'ppfile123 prevention prince prince1 princesa princess princess1 princess12 princesse printemps',
  'private protect protected public puppy purple pussycat q1w2e3r4 q1w2e3r4t5 qazwsx qazwsxedc qazxsw',
  'qsdfgh qsdfghjklm queen queen1 quentin qwe123qwe qweasd qweasdzxc qweqwe qwerasdf qwert qwerty',
  'qwerty1 qwerty12 qwerty123 qwerty1234 qwerty12345 qwerty2024 qwertyqwerty qwertyui qwertyuiop qwertz',
  'qwertz123 rabbit rachel rainbow ranger raven raymond realmadrid rebecca redhat renault rennes',
  'rennes35 republique rhonda rich richard rihanna rita robert robert1 robin roblox rock rocket',
  'rocknroll rockstar roger romain romain1 ronald ronaldo root rosa rose rose1 rouge router ruby rugby',
  'ruth ryan safety salarie salaries salut salut123 samedi samsung samsung1 samuel samurai sandra',
  'sandrine sante sara sarah sarah1 sasuke saturday sauron school scott sean sebastien secret secret1',
  'secret123 secrets secure secure123 securite security september septembre server service sesame',
  'shadow shadow1 shadow123 shannon shark sharon sheila sherry shirley silver silver1 skyline slipknot',
  'snapchat soccer soccer1 societe soldier soleil soleil1 soleil123 soleil2024 someone something sonic',
  'sophie space spiderman spring spring1 star starlight stars startrek starwars starwars1 stephane',
  'stephanie stephanie1 stephen steven strasbourg student subaru sugar summer summer1 summer2024',
  'summer2025 sunday sunny sunrise sunset sunshine superman superman1 superstar superuser support susan',
  'suzuki sweet sweetheart sweetie swift sylvia sylvie sysadmin system tammy taylor teacher teamo',
  'tennis tequiero teresa terry tesla test test123 test1234 tester testing thanks thankyou thebest',
  'thelma theresa thierry thomas thomas1 thomas12 thor thursday tiamo tiffany tiger tigers tiktok',
  'timothy tina together tomate toor topsecret toulouse toulouse31 toyota tracy travail trinity trustme',
  'trustno1 tuesday tulip turtle twitter tyler ubuntu universe university unix user user123 username',
  'vacances valentin valerie vanille vendredi victoria victory viking vincent violet virginia virginie',
  'vodka volkswagen walter wanda warcraft warrior wednesday welcome welcome1 welcome123 welcome2024',
  'welcome2025 welcome2026 wendy whale whatever whatsapp whiskey whisky white wifi william willie',
  'windows windows1 wine winner winter winter1 winter2024 winter2025 wireless wizard wolf wolverine',
  'wolves wxcvbn xbox yamaha yankees yellow youtube zachary zaq12wsx zaq1xsw2 zaq1zaq1 zelda zidane',
  'zion zizou zxcv zxcvbn zxcvbnm zxcvbnm123 zxczxc',
];

const SUFFIX_CHARACTER = /^[\p{N}\p{P}\p{S}\s]$/u;

/** Trailing digits, punctuation and spaces: `password123!` → `password`. */
export function withoutSuffix(lower: string): string {
  const chars = [...lower];
  let end = chars.length;
  while (end > 0 && SUFFIX_CHARACTER.test(chars[end - 1]!)) end--;
  return chars.slice(0, end).join('');
}

const UNLEET: Readonly<Record<string, string>> = {
  '0': 'o',
  '1': 'i',
  '3': 'e',
  '4': 'a',
  '5': 's',
  '7': 't',
  '@': 'a',
  $: 's',
};

/** Common substitutions undone: `p@ssw0rd` → `password`. */
function unleet(lower: string): string {
  return lower.replace(/[013457@$]/g, (c) => UNLEET[c]!);
}

const WHOLE = new Set(LIST.flatMap((line) => line.split(' ')));
const CORES = new Set([...WHOLE].map(withoutSuffix).filter((core) => core.length >= 4));

/**
 * Whether a password (lower-case) is a common one: as a whole, or once its trailing digits and
 * punctuation are removed, with or without common letter substitutions.
 */
export function isCommonPassword(lower: string): boolean {
  if (WHOLE.has(lower)) return true;
  const core = withoutSuffix(lower);
  return core.length >= 4 && (CORES.has(core) || CORES.has(withoutSuffix(unleet(core))));
}
