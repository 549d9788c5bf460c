// "did you mean `title`?" for misspelled keys.

export { closest } from '../shared/edit-distance.ts';

