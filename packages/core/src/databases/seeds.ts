import { seedAutomation } from '../automation/seeds.ts';
import { seedSystemTemplates } from '../graph/system-templates.ts';
import type { SeedHook } from './manager.ts';

/** The one seeding hook list every new database goes through; features add their seeds here. */
export const defaultSeeds: SeedHook[] = [seedSystemTemplates, seedAutomation];
