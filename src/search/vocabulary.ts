import type { Vocabulary } from '../preflight/query.js';

/**
 * Stopwords: words a task uses that say nothing about its subject (function words, and the
 * verbs every task starts with: add, fix, update). Related words come from the thesaurus in
 * data/thesaurus, joined with the corpus when the search cache is built.
 * Data only: kept in a module (not a JSON file read at run time) so the preflight bundle carries it.
 */
export const VOCABULARY: Vocabulary = {
  stopwords: [
    'a', 'about', 'after', 'again', 'all', 'also', 'am', 'an', 'and', 'any', 'are', 'as', 'at',
    'be', 'because', 'been', 'before', 'being', 'both', 'but', 'by', 'can', 'could', 'did', 'do',
    'does', 'doing', 'done', 'each', 'for', 'from', 'further', 'get', 'got', 'had', 'has', 'have',
    'he', 'her', 'here', 'him', 'his', 'how', 'i', 'if', 'in', 'into', 'is', 'it', 'its', 'just',
    'keep', 'keeps', 'know', 'let', 'lets', 'like', 'make', 'me', 'more', 'most', 'my', 'need',
    'needs', 'new', 'no', 'nor', 'not', 'now', 'of', 'off', 'on', 'once', 'one', 'only', 'or',
    'other', 'our', 'ours', 'out', 'over', 'own', 'please', 'same', 'she', 'should', 'so', 'some',
    'still', 'such', 'sure', 'than', 'that', 'the', 'their', 'them', 'then', 'there', 'these',
    'they', 'this', 'those', 'through', 'to', 'too', 'try', 'under', 'until', 'up', 'us', 'very',
    'want', 'was', 'we', 'were', 'what', 'when', 'where', 'which', 'while', 'who', 'why', 'will',
    'with', 'would', 'you', 'your', 'add', 'adding', 'change', 'changing', 'fix', 'fixing',
    'implement', 'update', 'updating', 'use', 'using', 'set', 'work', 'working', 'handle', 'write',
    'task', 'thing', 'things', 'way', 'also', 'via', "it's", "let's",
  ],
};
