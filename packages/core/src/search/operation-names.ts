/** The background re-embedding (llm lane): data `{database}`. */
export const reembedOperation = 'search.reembed';
