import { invalidPackage } from './errors.ts';
import { isoDate, objectOrNull } from './model.ts';

/**
 * Typed reads of the members of one object of a package. An absent or null member reads as null; a
 * member of the wrong type refuses the package (400), naming the object (`where`) and the member, so a
 * malformed file is never read as something else and imported.
 */
export class Fields {
  constructor(
    private readonly item: Record<string, unknown>,
    readonly where: string,
  ) {}

  private present(field: string): unknown {
    const value = this.item[field];
    return value === null ? undefined : value;
  }

  private refuse(field: string, expected: string): never {
    throw invalidPackage(`${this.where}: \`${field}\` must be ${expected}`);
  }

  requiredString(field: string): string {
    const value = this.present(field);
    if (typeof value !== 'string' || !value) throw invalidPackage(`${this.where} has no \`${field}\``);
    return value;
  }

  string(field: string): string | null {
    const value = this.present(field);
    if (value === undefined) return null;
    return typeof value === 'string' ? value : this.refuse(field, 'text');
  }

  object(field: string): Record<string, unknown> | null {
    const value = this.present(field);
    if (value === undefined) return null;
    return objectOrNull(value) ?? this.refuse(field, 'an object');
  }

  boolean(field: string): boolean | null {
    const value = this.present(field);
    if (value === undefined) return null;
    return typeof value === 'boolean' ? value : this.refuse(field, 'true or false');
  }

  stringList(field: string): string[] | null {
    const value = this.present(field);
    if (value === undefined) return null;
    return Array.isArray(value) && value.every((entry) => typeof entry === 'string')
      ? value
      : this.refuse(field, 'a list of text');
  }

  numberList(field: string): number[] | null {
    const value = this.present(field);
    if (value === undefined) return null;
    return Array.isArray(value) && value.every((entry) => typeof entry === 'number' && Number.isFinite(entry))
      ? value
      : this.refuse(field, 'a list of numbers');
  }

  /** A list of objects; a list holding anything else refuses the package. */
  objectList(field: string): Record<string, unknown>[] | null {
    const value = this.present(field);
    if (value === undefined) return null;
    if (!Array.isArray(value)) return this.refuse(field, 'a list of objects');
    return value.map((entry) => objectOrNull(entry) ?? this.refuse(field, 'a list of objects'));
  }

  /** `{x, y}` of finite numbers. */
  point(field: string): { x: number; y: number } | null {
    const value = this.object(field);
    if (value === null) return null;
    const { x, y } = value;
    return typeof x === 'number' && Number.isFinite(x) && typeof y === 'number' && Number.isFinite(y)
      ? { x, y }
      : this.refuse(field, 'an object of numbers `x` and `y`');
  }

  /** An ISO 8601 datetime (either separator), as stored here. */
  date(field: string): string | null {
    const value = this.string(field);
    if (value === null || !value.trim()) return null;
    return isoDate(value) ?? this.refuse(field, 'a datetime');
  }
}
