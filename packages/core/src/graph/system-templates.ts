import type { Db } from '../storage/index.ts';

interface SystemTemplate {
  id: string;
  name: string;
  template_type: 'node' | 'edge';
  description: string;
  icon: string;
  color: string;
  properties: unknown[];
}

const definition = { name: 'definition', property_type: 'text', required: true, description: 'What the item is' };

/** Templates every database starts with; `is_system`, so they cannot be renamed or deleted. */
export const systemTemplates: SystemTemplate[] = [
  {
    id: 'system_template_item',
    name: 'Item',
    template_type: 'node',
    description: 'A generic knowledge item',
    icon: 'circle',
    color: '#64748b',
    properties: [definition],
  },
  {
    id: 'system_template_link',
    name: 'Link',
    template_type: 'edge',
    description: 'A generic relationship',
    icon: 'link',
    color: '#94a3b8',
    properties: [],
  },
  {
    id: 'system_template_person',
    name: 'Person',
    template_type: 'node',
    description: 'A human being',
    icon: 'user',
    color: '#2563eb',
    properties: [],
  },
  {
    id: 'system_template_organization',
    name: 'Organization',
    template_type: 'node',
    description: 'A company, institution or group',
    icon: 'building',
    color: '#7c3aed',
    properties: [],
  },
  {
    id: 'system_template_location',
    name: 'Location',
    template_type: 'node',
    description: 'A place',
    icon: 'map-pin',
    color: '#059669',
    properties: [],
  },
  {
    id: 'system_template_event',
    name: 'Event',
    template_type: 'node',
    description: 'Something that happened',
    icon: 'calendar',
    color: '#d97706',
    properties: [],
  },
  {
    id: 'system_template_concept',
    name: 'Concept',
    template_type: 'node',
    description: 'An idea or abstraction',
    icon: 'lightbulb',
    color: '#db2777',
    properties: [],
  },
];

export async function seedSystemTemplates(db: Db): Promise<void> {
  const now = new Date().toISOString();
  const rows = systemTemplates.map((template) => ({
    ...template,
    properties: JSON.stringify(template.properties),
    is_system: true,
    created_at: now,
    updated_at: now,
  }));
  await db('graph_templates').insert(rows).onConflict('id').ignore();
}
