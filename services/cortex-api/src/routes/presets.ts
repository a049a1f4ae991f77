import { presetEndpoints as api } from '@rhizome/contracts/api/presets';
import { ApiError } from '@rhizome/contracts/errors';
import { cloudModelCatalog, cloudModelsOf } from '@rhizome/core/providers';
import { findPreset, missingPresetModels, presetSettingsPatch, vramPresets } from '@rhizome/core/providers';
import type { RouteTable } from '../http/route.ts';
import type { CortexDeps } from '../deps.ts';

export function mountPresetRoutes(routes: RouteTable, { platform }: CortexDeps): void {
  const { settings, announceSettingsChanged, providers } = platform;
  const requirePreset = (id: string) => {
    const preset = findPreset(id);
    if (!preset) throw ApiError.notFound('preset', id);
    return preset;
  };

  routes.add(api.list, () => ({ presets: vramPresets, count: vramPresets.length }));
  routes.add(api.get, ({ params }) => requirePreset(params.preset_id));
  routes.add(api.apply, async ({ body }) => {
    const preset = requirePreset(body.preset_id);
    const patch = presetSettingsPatch(preset);
    settings.patch({ llm: patch });
    await announceSettingsChanged();
    const installed = await providers.installedLocalModels();
    const missing = missingPresetModels(preset, installed);
    return {
      success: true, preset_id: preset.name, preset_name: preset.display_name, settings_updated: patch,
      message: applyMessage(preset.display_name, installed, missing), missing_models: missing,
    };
  });
  routes.add(api.cloudModels, () => ({ providers: cloudModelCatalog }));
  routes.add(api.cloudModelsOf, ({ params }) => {
    const models = cloudModelsOf(params.provider);
    if (!models) throw ApiError.notFound('cloud_provider', params.provider);
    return models;
  });
}

function applyMessage(presetName: string, installed: string[] | null, missing: string[]): string {
  const applied = `Applied preset '${presetName}'`;
  if (installed === null) return `${applied}, but the local model server could not be reached to check its models`;
  if (missing.length > 0) return `${applied}; pull the missing models: ${missing.join(', ')}`;
  return `${applied}; its models are installed`;
}
