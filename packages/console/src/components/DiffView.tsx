import { makeStyles, tokens } from '@fluentui/react-components';

const useStyles = makeStyles({
  box: {
    margin: 0,
    maxHeight: '280px',
    overflow: 'auto',
    fontFamily: tokens.fontFamilyMonospace,
    fontSize: tokens.fontSizeBase200,
    lineHeight: tokens.lineHeightBase200,
    background: tokens.colorNeutralBackground3,
    border: `1px solid ${tokens.colorNeutralStroke2}`,
    borderRadius: tokens.borderRadiusMedium,
    padding: '4px 0',
  },
  line: { whiteSpace: 'pre', padding: '0 8px', minWidth: 'max-content' },
  add: { background: tokens.colorPaletteGreenBackground1, color: tokens.colorPaletteGreenForeground1 },
  del: { background: tokens.colorPaletteRedBackground1, color: tokens.colorPaletteRedForeground1 },
  head: { color: tokens.colorNeutralForeground3, fontWeight: tokens.fontWeightSemibold },
  hunk: { color: tokens.colorBrandForeground1 },
});

/** Counts the changed lines of a unified diff (not its ---/+++ headers). */
export const changedLines = (diff: string) => diff.split('\n').filter((l) => /^[-+](?![-+]{2} )/.test(l)).length;

/** A unified diff, its added lines green and its removed lines red, so a change reads at a glance. */
export function DiffView({ diff, label = 'Diff' }: { diff: string; label?: string }) {
  const s = useStyles();
  return (
    <section className={s.box} aria-label={label} data-testid="diff">
      {diff.split('\n').map((line, i) => {
        const cls = /^(---|\+\+\+) /.test(line)
          ? s.head
          : line.startsWith('@@')
            ? s.hunk
            : line.startsWith('+')
              ? s.add
              : line.startsWith('-')
                ? s.del
                : undefined;
        return (
          // biome-ignore lint/suspicious/noArrayIndexKey: a diff's lines have no identity but their position
          <div key={i} className={`${s.line} ${cls ?? ''}`} data-line={cls === s.add ? 'add' : cls === s.del ? 'del' : undefined}>
            {line || ' '}
          </div>
        );
      })}
    </section>
  );
}
