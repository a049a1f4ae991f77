import { presetEndpoints as api } from '@rhizome/contracts/api/presets';
import { cloudModelCatalog, requireCloudModels } from '@rhizome/core/providers';
import { presetApplyOutcome, presetSettingsPatch, requirePreset, vramPresets } from '@rhizome/core/providers';
import type { RouteTable } from '../http/route.ts';
import type { CortexDeps } from '../deps.ts';

/** VRAM presets for local models, applying one to the settings, and the cloud model catalogue. */
export function mountPresetRoutes(routes: RouteTable, { platform }: CortexDeps): void {
  const { settings, announceSettingsChanged, providers } = platform;

  routes.add(api.list, () => ({ presets: vramPresets, count: vramPresets.length }));
  routes.add(api.get, ({ params }) => requirePreset(params.preset_id));
  routes.add(api.apply, async ({ body }) => {
    const preset = requirePreset(body.preset_id);
    const patch = presetSettingsPatch(preset);
    settings.patch({ llm: patch });
    await announceSettingsChanged();
    const { missing, message } = presetApplyOutcome(preset, await providers.installedLocalModels());
    return {
      success: true,
      preset_id: preset.name,
      preset_name: preset.display_name,
      settings_updated: patch,
      message,
      missing_models: missing,
    };
  });
  routes.add(api.cloudModels, () => ({ providers: cloudModelCatalog }));
  routes.add(api.cloudModelsOf, ({ params }) => requireCloudModels(params.provider));
}
