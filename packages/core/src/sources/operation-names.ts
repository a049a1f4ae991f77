/** Queue operations of source ingestion (operations lane). */
export const indexSourceOperation = 'sources.index';
export const fetchUrlOperation = 'sources.fetch_url';
