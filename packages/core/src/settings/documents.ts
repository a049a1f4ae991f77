import fs from 'node:fs';
import type { Knex } from 'knex';
import { loadSettingsFile, parseSettings, type LoadedSettings } from './load.ts';
import { writeFileAtomic } from './persist.ts';

/** Where the stored settings are kept: the data directory's file, or a row of a server's `rhizome_system`. */
export interface SettingsDocument {
  /** Shown as `paths.settings_file`. */
  readonly location: string;
  /** The stored settings as last read or saved. */
  load(): LoadedSettings;
  save(content: string): void;
  /** Resolves once every save reached its store; rejects with the first that did not (the store keeps what it had). */
  saved(): Promise<void>;
  /** Reads a server's copy again (a file is read by every `load`). */
  refresh(): Promise<void>;
}

export class SettingsFile implements SettingsDocument {
  constructor(readonly location: string) {}

  load(): LoadedSettings {
    return loadSettingsFile(this.location);
  }

  save(content: string): void {
    writeFileAtomic(this.location, content);
  }

  async saved(): Promise<void> {}

  async refresh(): Promise<void> {}
}

const documentName = 'settings';

/**
 * The settings as one row of `settings_documents` in the server every process of a deployment shares.
 * Reads stay synchronous (settings are read on hot paths): `load` answers from the copy last read or
 * saved, `refresh` reads the row again (after another process announced a change), and saves are
 * written in order behind the caller, who awaits `saved()` before telling the other processes.
 */
export class ServerSettings implements SettingsDocument {
  readonly location = 'postgres: rhizome_system.settings_documents';
  private stored: string | undefined;
  private writes: Promise<void> = Promise.resolve();
  private failure: unknown;

  private constructor(private readonly db: Knex) {}

  /**
   * Opens the row, creating its table; a server holding no settings yet takes those of `importFile`
   * (the data directory's file, when a deployment moves onto the server).
   */
  static async open(db: Knex, importFile: string): Promise<ServerSettings> {
    await db.transaction(async (trx) => {
      await trx.raw(
        'CREATE TABLE IF NOT EXISTS settings_documents (name text PRIMARY KEY, content text NOT NULL, updated_at text NOT NULL)',
      );
      if (!fs.existsSync(importFile)) return;
      await trx('settings_documents')
        .insert({
          name: documentName,
          content: fs.readFileSync(importFile, 'utf8'),
          updated_at: new Date().toISOString(),
        })
        .onConflict('name')
        .ignore();
    });
    const settings = new ServerSettings(db);
    await settings.refresh();
    return settings;
  }

  load(): LoadedSettings {
    return parseSettings(this.stored, documentName);
  }

  save(content: string): void {
    this.writes = this.writes.then(async () => {
      try {
        await this.db('settings_documents')
          .insert({ name: documentName, content, updated_at: new Date().toISOString() })
          .onConflict('name')
          .merge();
        this.stored = content;
      } catch (error) {
        this.failure ??= error;
      }
    });
  }

  async saved(): Promise<void> {
    await this.writes;
    const failure = this.failure;
    this.failure = undefined;
    if (failure !== undefined) throw failure;
  }

  async refresh(): Promise<void> {
    const row = (await this.db('settings_documents').where({ name: documentName }).first('content')) as
      { content: string } | undefined;
    this.stored = row?.content;
  }
}
