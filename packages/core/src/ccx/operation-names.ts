/** Queue operations of CCX packages (operations lane), named as the spec's task examples name them. */
export const exportGraphOperation = 'export_graph';
export const exportBySourcesOperation = 'export_by_sources';
export const importCcxOperation = 'import_ccx';
