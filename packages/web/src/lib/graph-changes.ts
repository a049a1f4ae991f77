/** Dispatched on window after the graph changed from a panel (a merge, a delete, a rename): open graph views reload. */
export const graphChangedEvent = 'rhizome:graph-changed';

export function announceGraphChanged(): void {
  window.dispatchEvent(new Event(graphChangedEvent));
}
