/** Caches of plugin registries (loaders, domains, tools, presets) that POST /admin/plugins/reload clears. */
export class PluginCaches {
  private readonly caches = new Map<string, () => void>();

  register(name: string, clear: () => void): void {
    this.caches.set(name, clear);
  }

  clearAll(): { invalidated: string[]; total: number } {
    const invalidated = [...this.caches.keys()];
    for (const clear of this.caches.values()) clear();
    return { invalidated, total: invalidated.length };
  }
}
