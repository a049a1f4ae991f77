/**
 * Word lists the builtin extractor types and cleans names with. All lowercase; compared against
 * `nameKey` forms (diacritics stripped).
 */

const list = (words: string) => new Set(words.trim().split(/\s*,\s*/));

/** Nationalities, demonyms and the languages spelled the same: attributes of a person, not entities. */
export const demonyms = list(`
  afghan, albanian, algerian, american, andorran, angolan, argentine, argentinian, armenian, australian, austrian, azerbaijani, bahamian,
  bangladeshi, belarusian, belgian, bengali, bolivian, bosnian, brazilian, british, bulgarian, burmese, cambodian, cameroonian, canadian,
  catalan, chilean, chinese, colombian, congolese, croatian, cuban, cypriot, czech, czechoslovak, danish, dutch, ecuadorian, egyptian, english,
  estonian, ethiopian, european, fijian, filipino, finnish, flemish, french, georgian, german, ghanaian, greek, guatemalan, haitian, hawaiian,
  hungarian, icelandic, indian, indonesian, iranian, iraqi, irish, israeli, italian, jamaican, japanese, jordanian, kazakh, kenyan, korean,
  kosovar, kurdish, latvian, lebanese, libyan, lithuanian, luxembourgish, macedonian, malaysian, maltese, mexican, moldovan, mongolian,
  montenegrin, moroccan, nepalese, nigerian, norwegian, pakistani, palestinian, panamanian, paraguayan, persian, peruvian, polish,
  portuguese, prussian, puerto rican, romanian, russian, salvadoran, saudi, scottish, senegalese, serbian, singaporean, slovak, slovene,
  slovenian, somali, south african, soviet, spanish, sri lankan, sudanese, swedish, swiss, syrian, taiwanese, tanzanian, thai, tibetan,
  tunisian, turkish, ugandan, ukrainian, uruguayan, uzbek, venezuelan, vietnamese, welsh, yemeni, yugoslav, yugoslavian, zambian,
  zimbabwean, african, asian, latin, arab, arabic, hebrew, hindi, latino, anglo, roman, byzantine, ottoman, frankish, norman, saxon,
  north american, south american, latin american, new zealander, nordic, scandinavian, franco, anglo-american, afro-american, african-american,
  malayalam, tamil, telugu, kannada, marathi, punjabi, gujarati, urdu, odia, assamese, sinhala, cantonese, mandarin, tagalog, swahili,
  yiddish
`);

/**
 * Titles and honorifics stripped from the front of a person's name into a `title` property, with the roles
 * news copy writes capitalised before a name ("Midfielder Tomás Ferreira", "Novelist Amara Okafor").
 */
export const honorifics = list(`
  mr, mrs, ms, miss, mx, dr, doctor, prof, professor, sir, dame, lord, lady, king, queen, prince, princess, emperor, empress, tsar, czar,
  president, vice president, prime minister, chancellor, minister, senator, governor, mayor, judge, justice, commander, captain, capt, general,
  gen, colonel, col, major, lieutenant, lt, sergeant, sgt, admiral, adm, marshal, field marshal, corporal, private, bishop, archbishop, cardinal,
  pope, reverend, rev, father, brother, sister, rabbi, imam, sheikh, duke, duchess, count, countess, baron, baroness, earl, marquess, viscount,
  chief, coach, agent, officer, detective, inspector, pastor, saint,
  midfielder, striker, defender, goalkeeper, winger, quarterback, novelist, actress, filmmaker, chairman, chairwoman
`);

/** Head words that make a name an organisation ("Marshall Space Flight Center", "Baylor University"). */
export const organisationHeads = list(`
  academy, agency, airline, centrum, stichting, initiatives, creations, airlines, archive, archives, army, association, authority, band, bank, board, brigade, bureau, cardinals, center,
  centre, church, club, co, college, commission, committee, company, conference, congress, consortium, corporation, corp, council, court,
  department, division, enterprises, entertainment, federation, fc, films, force, foundation, fund, group, guild, hospital, inc, institute,
  institution, laboratory, laboratories, league, library, limited, llc, ltd, ministry, museum, navy, network, newspaper, office, order,
  orchestra, organisation, organization, parliament, party, pictures, police, press, productions, records, regiment, research, school,
  senate, service, society, studio, studios, team, trust, union, united, university, abbey, monastery, cathedral, seminary, society, house
`);

/**
 * A company's trade after its own name ("Brightline Software", "Halvard Shipping"): an organisation only
 * after a name of one or two words, since "Free Software" and "Users of Free Software" are no company.
 */
export const companyHeads = list(`
  software, systems, technologies, analytics, shipping, energy, motors, labs, holdings, pharmaceuticals, logistics, airways, industries,
  electronics, robotics, partners, ventures, insurance, telecom
`);

/** Head words of recurring events, whose year is part of the name ("the 1949 Cannes Film Festival"). */
export const eventHeads = list(`
  festival, olympics, games, championship, championships, cup, awards, exposition, expo, marathon, prix, biennale, congress
`);

/** Head words that make a name a place ("Hudson River", "County of Hanau"). */
export const placeHeads = list(`
  avenue, bay, beach, bridge, canal, canyon, cape, castle, city, coast, county, creek, desert, district, duchy, empire, forest, fort, gulf,
  harbour, harbor, hill, hills, island, islands, kingdom, lake, mountain, mountains, mount, municipality, ocean, palace, park, parish, peninsula,
  province, region, republic, river, road, sea, square, state, station, strait, street, tower, town, township, valley, village, county of,
  margraviate, principality, prefecture, oblast, canton, commune, borough, territory, airport, stadium, arena
`);

/** Countries, their usual short forms, continents and US states: always places. */
export const places = list(`
  afghanistan, albania, algeria, argentina, armenia, australia, austria, azerbaijan, bangladesh, belarus, belgium, bolivia, bosnia, brazil,
  bulgaria, cambodia, cameroon, canada, chile, china, colombia, croatia, cuba, cyprus, czechia, czech republic, denmark, ecuador, egypt,
  england, estonia, ethiopia, finland, france, georgia, germany, ghana, greece, hungary, iceland, india, indonesia, iran, iraq, ireland,
  israel, italy, jamaica, japan, jordan, kazakhstan, kenya, korea, south korea, north korea, latvia, lebanon, libya, lithuania, luxembourg,
  malaysia, malta, mexico, moldova, mongolia, montenegro, morocco, nepal, netherlands, new zealand, nigeria, norway, pakistan, panama,
  paraguay, peru, philippines, poland, portugal, romania, russia, saudi arabia, scotland, senegal, serbia, singapore, slovakia, slovenia,
  somalia, south africa, spain, sri lanka, sudan, sweden, switzerland, syria, taiwan, tanzania, thailand, tunisia, turkey, uganda, ukraine,
  united kingdom, united states, uruguay, venezuela, vietnam, wales, yemen, zambia, zimbabwe, prussia, bavaria, saxony, soviet union,
  yugoslavia, czechoslovakia, ussr, usa, uk, africa, asia, europe, north america, south america, oceania, antarctica, america,
  alabama, alaska, arizona, arkansas, california, colorado, connecticut, delaware, florida, hawaii, idaho, illinois, indiana, iowa,
  kansas, kentucky, louisiana, maine, maryland, massachusetts, michigan, minnesota, mississippi, missouri, montana, nebraska, nevada,
  new hampshire, new jersey, new mexico, new york, north carolina, north dakota, ohio, oklahoma, oregon, pennsylvania, rhode island,
  south carolina, south dakota, tennessee, texas, utah, vermont, virginia, washington, west virginia, wisconsin, wyoming, quebec, ontario,
  london, paris, berlin, rome, vienna, madrid, moscow, tokyo, beijing, lima, los angeles, san francisco, chicago, boston, sydney, melbourne,
  toronto, warsaw, prague, budapest, amsterdam, brussels, lisbon, dublin, edinburgh, glasgow, geneva, zurich, munich, hamburg, milan,
  naples, florence, venice, athens, istanbul, cairo, delhi, mumbai, shanghai, hong kong, seoul, bangkok, manila, jakarta, mexico city,
  buenos aires, rio de janeiro, sao paulo, hollywood, manhattan, brooklyn, new york city
`);

/** Nouns that, after "X is a …", say what kind of thing X is. */
export const workNouns = list(`
  film, movie, documentary, album, song, single, ep, novel, book, play, musical, opera, series, sitcom, show, episode, painting, poem,
  short story, story, comic, manga, anime, game, video game, magazine, newspaper, soundtrack, ballet, symphony, miniseries, drama, comedy,
  thriller, western, cartoon, telenovela, programme, program, adaptation, sequel, remake, work, journal
`);

export const personNouns = list(`
  actor, actress, singer, songwriter, composer, lyricist, musician, writer, author, novelist, poet, playwright, screenwriter, director,
  filmmaker, film maker, producer, painter, artist, sculptor, architect, photographer, politician, statesman, diplomat, lawyer, judge, physician,
  scientist, physicist, chemist, biologist, mathematician, philosopher, theologian, historian, economist, engineer, inventor, astronaut,
  footballer, player, athlete, cyclist, boxer, wrestler, swimmer, runner, coach, manager, cricketer, golfer, racing driver, driver, jockey,
  journalist, businessman, businesswoman, entrepreneur, bishop, priest, monk, nun, saint, king, queen, prince, princess, emperor, empress,
  duke, duchess, count, countess, nobleman, noblewoman, noble, aristocrat, soldier, officer, general, admiral, commander, queen consort,
  model, dancer, comedian, presenter, broadcaster, host, teacher, professor, educator, scholar, academic, activist, socialite, pianist,
  guitarist, drummer, violinist, conductor, rapper, designer, illustrator, cartoonist, animator, editor, publisher, translator, missionary,
  explorer, aviator, pilot, sailor, margrave, abbess, abbot, consort, ruler, monarch, regent, heir, member, daughter, son, wife, husband,
  chef, surgeon, nurse, psychologist, sociologist, linguist, archaeologist, astronomer, geologist, botanist, zoologist, physiologist,
  mayor, governor, senator, minister, president, politician, official, civil servant, spy, criminal, outlaw, pirate, lord, lady, baron, earl
`);

export const organisationNouns = list(`
  company, corporation, band, group, club, team, organisation, organization, university, college, school, institute, institution, agency,
  party, museum, library, archive, studio, label, record label, newspaper, magazine, network, broadcaster, channel, station, airline, bank,
  firm, manufacturer, publisher, foundation, charity, society, association, league, federation, orchestra, choir, army, navy, regiment,
  dynasty, family, house, church, order, monastery, abbey, hospital, brand, franchise, government, ministry, department, council, court
`);

export const placeNouns = list(`
  city, town, village, hamlet, municipality, commune, county, district, province, region, state, country, nation, island, river, lake,
  mountain, valley, suburb, neighbourhood, neighborhood, capital, settlement, parish, borough, territory, kingdom, principality, duchy,
  peninsula, bay, desert, forest, park, area, locality, place, census-designated place, unincorporated community, community, township
`);

/** Epithets that follow a name after "the" and belong to it ("Boso the Elder", "Alfred the Great"). */
export const epithets = list(`
  elder, younger, great, good, bold, bald, fat, pious, wise, fair, lion, conqueror, confessor, just, red, black, short, tall, simple, old, young,
  magnificent, terrible, lame, unready, navigator, apostate, saint, blessed, brave, cruel, great's
`);
