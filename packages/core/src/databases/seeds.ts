import { seedAutomation } from '../automation/index.ts';
import { seedSystemTemplates } from '../graph/index.ts';
import type { SeedHook } from './manager.ts';

/** The one seeding hook list every new database goes through; features add their seeds here. */
export const defaultSeeds: SeedHook[] = [seedSystemTemplates, seedAutomation];
