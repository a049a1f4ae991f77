/** The one pagination helper of every list endpoint (docs/api-conventions.md#pagination). */
export interface PageWindow {
  page: number;
  pageSize: number;
  offset: number;
}

export function pageWindow(
  query: { page?: number; page_size?: number },
  limits: { default_page_size: number; max_page_size: number },
): PageWindow {
  const page = Math.max(1, query.page ?? 1);
  const pageSize = Math.min(Math.max(1, query.page_size ?? limits.default_page_size), limits.max_page_size);
  return { page, pageSize, offset: (page - 1) * pageSize };
}

export function pagination(total: number, window: PageWindow) {
  const totalPages = Math.ceil(total / window.pageSize);
  return {
    total,
    page: window.page,
    page_size: window.pageSize,
    total_pages: totalPages,
    has_next: window.page < totalPages,
    has_prev: window.page > 1,
  };
}
