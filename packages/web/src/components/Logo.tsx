/** The mark of the header and the sign-in card. */
export function Logo({ size = 28 }: { size?: number }) {
  return (
    <svg width={size} height={size} viewBox="0 0 32 32" aria-hidden="true" focusable="false">
      <rect width="32" height="32" rx="7" fill="var(--mantine-color-teal-8)" />
      <g stroke="#fff" strokeWidth="2.4" strokeLinecap="round" fill="none">
        <path d="M16 7v18M16 16l-7 6M16 16l7 6M16 12l-6-4M16 12l6-4" />
      </g>
    </svg>
  );
}
