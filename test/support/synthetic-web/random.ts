/**
 * Seeded randomness of the synthetic web: the same seed gives the same web on every machine.
 * One mulberry32 implementation serves the whole project (crawler/classify/random.ts).
 */
export { seededRandom, shuffled as seededShuffle } from "../../../crawler/classify/random";
