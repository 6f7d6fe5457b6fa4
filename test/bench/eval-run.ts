import { bench } from './eval.js';

await bench();
