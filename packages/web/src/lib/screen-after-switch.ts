/** Item pages whose item belongs to one database, each with the list it is reached from. */
const itemPages: { page: RegExp; list: string }[] = [
  { page: /^\/sources\/[^/]+$/, list: '/sources' },
  { page: /^\/chat\/[^/]+$/, list: '/chat' },
  { page: /^\/templates\/[^/]+$/, list: '/templates' },
  { page: /^\/automation\/workflows\/[^/]+$/, list: '/automation/workflows' },
  { page: /^\/automation\/executions\/[^/]+$/, list: '/automation/executions' },
];

/**
 * Where the interface goes after the active database changes: the same screen with the new database's
 * data, except an item's page, which opens its list (the item is another database's).
 */
export function screenAfterSwitch(pathname: string, search: string): string {
  const item = itemPages.find(({ page }) => page.test(pathname));
  return item ? item.list : `${pathname}${search}`;
}
