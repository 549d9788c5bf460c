// What a knowledge base asks of its topics' views, in one module: loaded
// when the knowledge base opens, or later by one that opened without them
// (app/knowledge-base.ts OpenOptions.views: `kb schema`, whose question
// is nearly always answered from the top of each folder).
export { hasLearnable, listableFrom } from '../kb/index/listing.ts';
export { openTopic } from '../kb/index/view.ts';
