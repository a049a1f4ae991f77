/** Queue operations of extraction: one task per group and the finalisation on the llm lane, the commit on the operations lane. */
export const extractGroupOperation = 'extraction.group';
export const finalizeExtractionOperation = 'extraction.finalize';
export const commitExtractionOperation = 'extraction.commit';
