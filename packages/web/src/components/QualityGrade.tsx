import { Badge, Group, Text, Tooltip } from '@mantine/core';
import { qualityBandsText, qualityColorOf, shownGrade } from '../lib/quality.ts';

interface Props {
  grade: number;
  /** The API's `quality_label` for this grade. */
  label: string;
  /** Words after "/ 100", such as "average". */
  suffix?: string;
}

/** A quality grade as its number out of 100 and its band; the bands are explained on hover or focus. */
export function QualityGrade({ grade, label, suffix }: Props) {
  return (
    <Group gap="xs" align="baseline">
      <Text fz={28} fw={700} lh={1} data-testid="quality-grade">
        {shownGrade(grade)}
      </Text>
      <Text c="dimmed" fz="sm">
        / 100{suffix ? ` ${suffix}` : ''}
      </Text>
      {/* Focus and touch open it too: the bands are not only for mouse users. */}
      <Tooltip label={qualityBandsText} multiline w={260} withArrow events={{ hover: true, focus: true, touch: true }}>
        <Badge variant="light" color={qualityColorOf(label)} tt="none" tabIndex={0} data-testid="quality-band">
          {label}
          <span className="visually-hidden"> ({qualityBandsText})</span>
        </Badge>
      </Tooltip>
    </Group>
  );
}
