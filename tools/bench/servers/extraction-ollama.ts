import fs from 'node:fs';
import { startFakeOllama } from '../../../tests/support/fakes/ollama.ts';

// The instant model of the extraction benchmark, in its own process: for each group it answers the
// entity pass, then the relationship pass, with the same canned lines (the document repeats the names).
const groups = Number(process.env.BENCH_GROUPS);
const entities = [
  'E|Marie Curie|Person|Curie; Madame Curie|0.9|S1|Physicist and chemist who pioneered research on radioactivity and won two Nobel Prizes.',
  'P|0|birth_year|1867',
  'E|Warsaw|Place|Warszawa|0.9|S1|Capital of Poland, the city where Marie Curie was born and grew up before moving to Paris.',
  'E|Pierre Curie|Person|P. Curie|0.9|S2|French physicist, husband of Marie Curie, who shared the 1903 Nobel Prize in Physics with her.',
].join('\n');
const relationships = [
  'R|0|1|born_in|0.9|S1|Marie Curie was born in Warsaw, as the first sentence of the passage states plainly.',
  'R|0|2|spouse_of|0.9|S2|Marie Curie married Pierre Curie, which the second sentence of the passage reports.',
].join('\n');
const fake = await startFakeOllama({ models: ['bench-model'] });
fake.scriptChat(...Array.from({ length: groups }, () => [entities, relationships]).flat());
fs.writeFileSync(process.env.BENCH_URL_FILE!, fake.url);
console.log('FAKE READY');
