// Deterministic synthetic books: the same seed always yields the same sequence, so
// every run of the benchmarks works on the same data and figures are comparable.

export interface SyntheticBook {
  title: string;
  author: string;
  year: number;
}

/** mulberry32: a tiny, fast 32-bit PRNG; good enough to pick words, not for crypto. */
export function createPrng(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const ADJECTIVES = [
  'Silent',
  'Hidden',
  'Broken',
  'Golden',
  'Distant',
  'Forgotten',
  'Crimson',
  'Endless',
  'Quiet',
  'Wild',
  'Bitter',
  'Burning',
  'Frozen',
  'Lost',
  'Secret',
  'Shattered',
  'Sleeping',
  'Wandering',
  'Ancient',
  'Restless',
  'Hollow',
  'Gentle',
  'Savage',
  'Invisible',
  'Radiant',
  'Scarlet',
  'Pale',
  'Iron',
  'Glass',
  'Paper',
  'Northern',
  'Southern',
  'Last',
  'First',
  'Second',
  'Little',
  'Great',
  'Dark',
  'Bright',
  'Midnight',
  'Summer',
  'Winter',
  'Autumn',
  'Spring',
  'Electric',
  'Practical',
  'Modern',
  'Functional',
  'Concurrent',
  'Distributed',
  'Reactive',
  'Elegant',
  'Effective',
];

const NOUNS = [
  'Garden',
  'River',
  'House',
  'Mountain',
  'Kingdom',
  'Empire',
  'Shadow',
  'Light',
  'Storm',
  'Sea',
  'Forest',
  'City',
  'Road',
  'Bridge',
  'Tower',
  'Island',
  'Letter',
  'Promise',
  'Memory',
  'Dream',
  'Journey',
  'Secret',
  'Song',
  'Fire',
  'Winter',
  'Night',
  'Morning',
  'Harbor',
  'Library',
  'Map',
  'Clock',
  'Mirror',
  'Orchard',
  'Voyage',
  'Silence',
  'Machine',
  'Algorithm',
  'Compiler',
  'Network',
  'System',
  'Database',
  'Protocol',
  'Pattern',
  'Architecture',
  'Design',
  'Kernel',
  'Engine',
  'Lighthouse',
  'Cathedral',
  'Bazaar',
  'Frontier',
  'Horizon',
  'Country',
  'Daughter',
  'Stranger',
];

const PLURALS = [
  'Stars',
  'Kings',
  'Rivers',
  'Ghosts',
  'Wolves',
  'Birds',
  'Children',
  'Lovers',
  'Thieves',
  'Machines',
  'Patterns',
  'Systems',
  'Programmers',
  'Islands',
  'Mountains',
  'Strangers',
  'Roses',
];

const FIRST_NAMES = [
  'Eleanor',
  'James',
  'Margaret',
  'Robert',
  'Olivia',
  'William',
  'Sophia',
  'Henry',
  'Amelia',
  'Thomas',
  'Charlotte',
  'George',
  'Isabella',
  'Edward',
  'Grace',
  'Samuel',
  'Lucy',
  'Daniel',
  'Hannah',
  'Arthur',
  'Clara',
  'Martin',
  'Alice',
  'Peter',
  'Ruth',
  'David',
  'Helen',
  'Andrew',
  'Nora',
  'Michael',
  'Ada',
  'Ken',
  'Grace',
  'Linus',
  'Barbara',
  'Donald',
  'Frances',
  'Edsger',
  'Leslie',
  'Niklaus',
  'Tony',
  'John',
  'Mary',
  'Anne',
  'Hugo',
  'Ingrid',
  'Yuki',
  'Amara',
  'Kwame',
  'Mei',
  'Rahul',
  'Fatima',
  'Mateo',
  'Zofia',
  'Lars',
  'Chiara',
  'Olusegun',
  'Ana',
  'Dmitri',
  'Sven',
  'Élodie',
  'Søren',
  'José',
  'Zoë',
  'Björn',
  'Renée',
  'François',
  'Małgorzata',
];

const LAST_NAMES = [
  'Whitfield',
  'Harrington',
  'Blackwood',
  'Ashford',
  'Pemberton',
  'Caldwell',
  'Thornton',
  'Hale',
  'Winslow',
  'Sinclair',
  'Merriweather',
  'Donovan',
  'Fairbanks',
  'Gallagher',
  'Holloway',
  'Kensington',
  'Langley',
  'Montgomery',
  'Nightingale',
  'Prescott',
  'Radcliffe',
  'Sterling',
  'Underwood',
  'Vance',
  'Wakefield',
  'Yardley',
  'Abernathy',
  'Brennan',
  'Castellano',
  'Delacroix',
  'Eriksen',
  'Fitzgerald',
  'Goldberg',
  'Hargreaves',
  'Ishikawa',
  'Jovanovic',
  'Kowalski',
  'Lindqvist',
  'Moreau',
  'Nakamura',
  'Okafor',
  'Petrov',
  'Quinlan',
  'Rossi',
  'Schneider',
  'Tanaka',
  'Umarov',
  'Villanueva',
  'Weber',
  'Xu',
  'Yilmaz',
  'Zielinski',
  'Kleppmann',
  'Knuth',
  'Lovelace',
  'Hopper',
  'Dijkstra',
  'Lamport',
  'Liskov',
  'Wirth',
  'Hoare',
  'Kernighan',
  'Ritchie',
  'Torvalds',
  'García',
  'Müller',
  'Øvergaard',
  'Nuñez',
  'Łukasiewicz',
  'Dvořák',
];

function pick<T>(random: () => number, list: readonly T[]): T {
  const item = list[Math.floor(random() * list.length)];
  if (item === undefined) throw new Error('pick from an empty list');
  return item;
}

function makeTitle(random: () => number): string {
  const shape = random();
  if (shape < 0.3) return `The ${pick(random, ADJECTIVES)} ${pick(random, NOUNS)}`;
  if (shape < 0.55) return `The ${pick(random, NOUNS)} of ${pick(random, PLURALS)}`;
  if (shape < 0.75) return `${pick(random, ADJECTIVES)} ${pick(random, PLURALS)}`;
  if (shape < 0.9) {
    return `A ${pick(random, ADJECTIVES)} ${pick(random, NOUNS)} in the ${pick(random, NOUNS)}`;
  }
  // A numbered volume: gives a few near-unique titles, as real catalogues have.
  const volume = 1 + Math.floor(random() * 5000);
  return `${pick(random, NOUNS)} ${pick(random, NOUNS)}, Volume ${volume}`;
}

function makeAuthor(random: () => number): string {
  const first = pick(random, FIRST_NAMES);
  const last = pick(random, LAST_NAMES);
  if (random() < 0.1) return `${first} ${last}, ${pick(random, FIRST_NAMES)} ${pick(random, LAST_NAMES)}`;
  return `${first} ${last}`;
}

/**
 * Template literals give V8 strings built of pieces; reading a character flattens them
 * into one, as text parsed from a JSON request body is, so memory figures stay honest.
 */
function flat(text: string): string {
  text.charCodeAt(0);
  return text;
}

/** An endless, deterministic stream of valid BookCreate bodies. */
export function* syntheticBooks(seed = 20_260_522): Generator<SyntheticBook> {
  const random = createPrng(seed);
  for (;;) {
    yield { title: flat(makeTitle(random)), author: flat(makeAuthor(random)), year: 1900 + Math.floor(random() * 201) };
  }
}
