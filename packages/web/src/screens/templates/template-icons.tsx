import {
  IconBook, IconBriefcase, IconBuilding, IconBulb, IconCalendar, IconCircle, IconCode, IconCpu, IconDatabase, IconFileText, IconFlag,
  IconFlask, IconHeart, IconLink, IconMapPin, IconMusic, IconPackage, IconPhoto, IconSchool, IconSparkles, IconStar, IconTag, IconTool,
  IconUser, IconUsers, IconWorld, type Icon,
} from '@tabler/icons-react';

/** The icons a template can have, by the names templates store (the built-in templates use these names). */
export const templateIcons: Record<string, Icon> = {
  circle: IconCircle, user: IconUser, users: IconUsers, building: IconBuilding, 'map-pin': IconMapPin, calendar: IconCalendar,
  lightbulb: IconBulb, link: IconLink, tag: IconTag, book: IconBook, 'file-text': IconFileText, flag: IconFlag, star: IconStar,
  heart: IconHeart, world: IconWorld, code: IconCode, database: IconDatabase, flask: IconFlask, briefcase: IconBriefcase,
  school: IconSchool, tool: IconTool, cpu: IconCpu, music: IconMusic, photo: IconPhoto, package: IconPackage, sparkles: IconSparkles,
};

/** A template's icon in its colour; a name this interface does not know is drawn as a circle. */
export function TemplateIcon({ icon, color, size = 18 }: { icon: string | null; color: string | null; size?: number }) {
  const Glyph = (icon && templateIcons[icon]) || IconCircle;
  return <Glyph size={size} stroke={1.8} color={color ?? 'var(--mantine-color-dimmed)'} aria-hidden />;
}
