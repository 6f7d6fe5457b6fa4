import { bench } from './preflight.js';

await bench();
