import path from 'node:path';
import { isDeepStrictEqual } from 'node:util';
import { Invalid } from '@rhizome/contracts/errors';
import { defaultSettings, type Settings, type SettingsWarning } from '@rhizome/contracts/settings';
import { DataPaths } from '../paths.ts';
import { applyEnvOverrides, readEnvOverrides, type EnvOverride } from './env-overrides.ts';
import { SettingsFile, type SettingsDocument } from './documents.ts';
import { maskSettings, normalizeSecretInput } from './mask.ts';
import { mergeSettings } from './merge.ts';
import { isPlainObject, type JsonObject } from './object-path.ts';
import { readOnlySettingKeys } from './schema-info.ts';
import { validateSettings } from './validate.ts';
import { changeWarnings } from './warnings.ts';

export interface SettingsStoreOptions {
  /** Shown as `data_dir` and the base of `paths`; defaults to the settings file's directory. */
  dataDir?: string;
}

export interface PatchResult {
  /** The new effective settings, masked. */
  settings: Settings;
  warnings: SettingsWarning[];
}

export type SettingsListener = (next: Settings, prev: Settings) => void;

/**
 * The settings of one deployment. Effective settings are defaults, overlaid with the stored settings
 * (the data directory's file, or a server's row), overlaid with environment overrides; only the first
 * two are ever written back.
 */
export class SettingsStore {
  /** Defaults overlaid with the file: exactly what the file holds after the next write. */
  #stored: Settings;
  #effective: Settings;
  #fileWarnings: SettingsWarning[];
  #envWarnings: SettingsWarning[] = [];
  #appliedOverrides: EnvOverride[] = [];
  readonly #envOverrides: EnvOverride[];
  readonly #envReadWarnings: SettingsWarning[];
  readonly #listeners = new Set<SettingsListener>();
  readonly #dataDir: string;

  private constructor(
    private readonly document: SettingsDocument,
    env: NodeJS.ProcessEnv,
    dataDir: string,
  ) {
    this.#dataDir = dataDir;
    const fromEnv = readEnvOverrides(env);
    this.#envOverrides = fromEnv.overrides;
    this.#envReadWarnings = fromEnv.warnings;
    const loaded = document.load();
    this.#stored = loaded.settings;
    this.#fileWarnings = loaded.warnings;
    this.#effective = this.#applyEnvironment();
  }

  /** Reads the file if there is one; creates nothing until the first write. */
  static open(
    settingsFile: string,
    env: NodeJS.ProcessEnv = process.env,
    options: SettingsStoreOptions = {},
  ): SettingsStore {
    return new SettingsStore(new SettingsFile(settingsFile), env, options.dataDir ?? path.dirname(settingsFile));
  }

  /** The settings kept in `document` (a server's row, `ServerSettings`), read as it was opened. */
  static kept(document: SettingsDocument, env: NodeJS.ProcessEnv, options: { dataDir: string }): SettingsStore {
    return new SettingsStore(document, env, options.dataDir);
  }

  /** Where the stored settings are kept: the settings file's path, or the server's table. */
  get settingsFile(): string {
    return this.document.location;
  }

  /** Problems found in the settings file and the environment at the last load; the bad parts fell back to defaults. */
  get loadWarnings(): readonly SettingsWarning[] {
    return [...this.#fileWarnings, ...this.#envReadWarnings, ...this.#envWarnings];
  }

  /**
   * The effective settings, secrets included (for the services' own use, never for a response): a
   * frozen snapshot, replaced as a whole on every change.
   */
  get(): Settings {
    return this.#effective;
  }

  /** The effective settings as every response shows them. */
  masked(): Settings {
    return maskSettings(this.#effective);
  }

  /**
   * Applies a PATCH body: deep merge per top-level group, unknown and read-only keys ignored, the
   * masked secret placeholder ignored. An invalid result throws Invalid and writes nothing.
   */
  patch(body: unknown): PatchResult {
    if (!isPlainObject(body)) throw new Invalid([{ loc: ['body'], msg: 'must be an object', type: 'type' }]);
    const input = normalizeSecretInput(body);
    for (const key of readOnlySettingKeys) delete input[key];
    const candidate = mergeSettings(this.#stored as JsonObject, input);
    const issues = validateSettings(candidate);
    if (issues.length > 0) {
      throw new Invalid(
        issues.map((issue) => ({ loc: ['body', ...issue.path], msg: issue.message, type: issue.type })),
      );
    }
    const next = candidate as Settings;
    const warnings = changeWarnings(this.#stored, next, this.#appliedOverrides);
    if (!isDeepStrictEqual(next, this.#stored)) this.#write(next);
    return { settings: this.masked(), warnings };
  }

  /** Overwrites the file with the defaults; returns the new effective settings, masked. */
  reset(): Settings {
    this.#write(defaultSettings());
    return this.masked();
  }

  /** Re-reads the stored settings, e.g. after another process changed them. */
  async refresh(): Promise<void> {
    await this.document.refresh();
    this.reload();
  }

  /**
   * Resolves once every change made here is stored (at once for a file); when one could not be, the
   * settings go back to what is stored and the failure is thrown.
   */
  async saved(): Promise<void> {
    try {
      await this.document.saved();
    } catch (error) {
      this.reload();
      throw error;
    }
  }

  /** Re-reads the file (or the server's copy as last read), e.g. after another process changed it. */
  reload(): void {
    const loaded = this.document.load();
    this.#fileWarnings = loaded.warnings;
    this.#replace(loaded.settings);
  }

  /** Calls `listener` after every patch, reset or reload that changes the effective settings. */
  onChange(listener: SettingsListener): () => void {
    this.#listeners.add(listener);
    return () => this.#listeners.delete(listener);
  }

  #write(next: Settings): void {
    const persisted: JsonObject = structuredClone(next);
    for (const key of readOnlySettingKeys) delete persisted[key];
    this.document.save(`${JSON.stringify(persisted, null, 2)}\n`);
    this.#replace(next);
  }

  #replace(stored: Settings): void {
    const prev = this.#effective;
    this.#stored = stored;
    this.#effective = this.#applyEnvironment();
    if (isDeepStrictEqual(prev, this.#effective)) return;
    for (const listener of [...this.#listeners]) listener(this.#effective, prev);
  }

  /** The effective settings for the current stored ones; records which overrides applied. */
  #applyEnvironment(): Settings {
    const { settings, applied, warnings } = applyEnvOverrides(this.#stored, this.#envOverrides);
    this.#appliedOverrides = applied;
    this.#envWarnings = warnings;
    return deepFreeze(withRuntimeInfo(structuredClone(settings), this.#dataDir, this.settingsFile));
  }
}

/** The effective settings are shared by every caller of get() (it is on hot paths), so nobody may change them. */
function deepFreeze<T>(value: T): T {
  if (value && typeof value === 'object' && !Object.isFrozen(value)) {
    for (const child of Object.values(value)) deepFreeze(child);
    Object.freeze(value);
  }
  return value;
}

function withRuntimeInfo(settings: Settings, dataDir: string, settingsFile: string): Settings {
  const paths = new DataPaths(dataDir);
  return {
    ...settings,
    data_dir: dataDir,
    paths: {
      settings_file: settingsFile,
      credentials_file: paths.credentialsFile,
      secrets_dir: paths.secretsDir,
      queue_db: paths.queueDb,
      logs_dir: paths.logsDir,
      databases_dir: paths.databasesDir,
      backups_dir: path.join(dataDir, 'backups'),
    },
  };
}
