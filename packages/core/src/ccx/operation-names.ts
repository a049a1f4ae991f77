/** Queue operations of CCX packages (operations lane); clients know them by these names. */
export const exportGraphOperation = 'export_graph';
export const exportBySourcesOperation = 'export_by_sources';
export const importCcxOperation = 'import_ccx';
