/**
 * The domain's edge templates as the relationship steps ask about them: is a type a template, is it
 * symmetric, what is its inverse, which of an inverse pair is the canonical direction, and do endpoint
 * types satisfy its `source_types`/`target_types`.
 */
import type { DomainDefinition, EdgeTemplateDefinition } from '../../sources/index.ts';
import type { TypeResolver } from './entity-types.ts';

/** Relationship types in the templates' form: trimmed, lower case, snake_case. */
export function edgeTypeKey(type: string): string {
  return type
    .trim()
    .toLowerCase()
    .replace(/[\s-]+/g, '_')
    .replace(/_+/g, '_');
}

export class EdgeCatalog {
  private readonly templates = new Map<string, EdgeTemplateDefinition>();
  private readonly position = new Map<string, number>();

  constructor(
    domain: DomainDefinition,
    private readonly types: TypeResolver,
  ) {
    domain.templates.edge_templates.forEach((template, index) => {
      this.templates.set(template.name, template);
      this.position.set(template.name, index);
    });
  }

  template(type: string): EdgeTemplateDefinition | null {
    return this.templates.get(type) ?? null;
  }

  symmetric(type: string): boolean {
    return this.templates.get(type)?.symmetric === true;
  }

  /** The declared inverse of a non-symmetric type, or null. */
  inverse(type: string): string | null {
    const template = this.templates.get(type);
    return template && !template.symmetric && template.inverse ? template.inverse : null;
  }

  /**
   * Of a type and its inverse, the one edges are kept in when both directions were extracted: the one
   * the domain lists first (parent_of before child_of), so a graph reads the same across sources.
   */
  canonical(type: string): string {
    const inverse = this.inverse(type);
    if (inverse === null || !this.position.has(inverse)) return type;
    return this.position.get(inverse)! < this.position.get(type)! ? inverse : type;
  }

  /**
   * Whether endpoint types fit a template's sides. `*` fits anything, and so does a generic endpoint type:
   * nothing is known that could contradict the template.
   */
  fits(type: string, sourceType: string, targetType: string): boolean {
    const template = this.templates.get(type);
    if (!template) return true;
    return this.sideFits(template.source_types, sourceType) && this.sideFits(template.target_types, targetType);
  }

  private sideFits(side: readonly string[], type: string): boolean {
    if (side.includes('*') || this.types.isGeneric(type)) return true;
    const identity = this.types.identity(type);
    return side.some((allowed) => this.types.identity(allowed) === identity);
  }
}
