/** Words too common to say what a text is about, for every keyword match in the project. */
export const STOPWORDS: ReadonlySet<string> = new Set(
  'the and for with that this from into onto when what which while where who whom whose why how have has had not but are was were will would should could can our your their its about after before then than them they there here also just only over under some more most very been being does did doing done make made use using used via per any all each every get got let you his her she him one two may might must shall'.split(' '),
);
