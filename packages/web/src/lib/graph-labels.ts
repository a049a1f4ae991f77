import { sentenceCase } from './sentence-case.ts';

/** A name written as a key (`historic_site`, `BORN_IN`) rather than for people. */
const machineName = /^[A-Za-z0-9]+(?:_[A-Za-z0-9]+)+$/;

/**
 * How a template's name reads as a title: names people typed ("Person", "Heritage site") stay as they are,
 * names extraction copied from a type key (`BORN_IN`, `historic_site`) become "Born in", "Historic site".
 */
export function templateLabel(name: string): string {
  return machineName.test(name.trim()) ? sentenceCase(name) : name;
}
