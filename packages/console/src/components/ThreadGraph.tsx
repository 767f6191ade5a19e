import { makeStyles, Text, tokens } from '@fluentui/react-components';
import { useNavigate } from 'react-router-dom';
import type { Item, ThreadEdge } from '../api/types';
import { ItemTypeIcon } from './ItemTypeIcon';
import { bezier, layout, NODE_H, NODE_W } from './thread-layout';

const useStyles = makeStyles({
  frame: {
    margin: 0,
    overflow: 'auto',
    border: `1px solid ${tokens.colorNeutralStroke2}`,
    borderRadius: tokens.borderRadiusMedium,
    backgroundColor: tokens.colorNeutralBackground2,
    maxHeight: '64vh',
  },
  canvas: { position: 'relative' },
  node: {
    position: 'absolute',
    width: `${NODE_W}px`,
    height: `${NODE_H}px`,
    boxSizing: 'border-box',
    display: 'flex',
    alignItems: 'center',
    gap: '8px',
    padding: '0 10px',
    border: `1px solid ${tokens.colorNeutralStroke1}`,
    borderRadius: tokens.borderRadiusMedium,
    cursor: 'pointer',
    backgroundColor: tokens.colorNeutralBackground1,
    boxShadow: tokens.shadow4,
    fontFamily: 'inherit',
    textAlign: 'left',
    color: tokens.colorNeutralForeground1,
    ':hover': { outline: `1px solid ${tokens.colorBrandStroke1}` },
    ':focus-visible': { outline: `2px solid ${tokens.colorStrokeFocus2}`, outlineOffset: '2px' },
  },
  name: { overflow: 'hidden', textOverflow: 'ellipsis', whiteSpace: 'nowrap', fontSize: tokens.fontSizeBase200 },
});

/** The thread drawn as a graph: items as nodes with their type icons, edges labelled with their kind. */
export function ThreadGraph({ items, edges }: { items: Item[]; edges: ThreadEdge[] }) {
  const s = useStyles();
  const navigate = useNavigate();
  const connected = new Set(edges.flatMap((e) => [e.fromItemId, e.toItemId]));
  const shown = items.filter((i) => connected.has(i.id));
  const { nodes, width, height } = layout(
    shown.map((i) => i.id),
    edges,
  );
  const seen = new Map<string, number>();
  const geometry = edges.flatMap((e) => {
    // Several edges between the same two items fan out instead of lying on top of each other.
    const pair = [e.fromItemId, e.toItemId].sort().join('|');
    const k = seen.get(pair) ?? 0;
    seen.set(pair, k + 1);
    const bend = k * 22;
    const a = nodes.get(e.fromItemId);
    const b = nodes.get(e.toItemId);
    if (!a || !b) return [];
    const forward = b.x > a.x;
    const x1 = forward ? a.x + NODE_W : a.x + NODE_W / 2;
    const y1 = forward ? a.y + NODE_H / 2 : a.y + NODE_H;
    const x2 = forward ? b.x : b.x + NODE_W / 2;
    const y2 = forward ? b.y + NODE_H / 2 : b.y;
    // The label sits a third of the way along: edges leave their sources apart, so labels do not pile up at a shared target.
    const [c1x, c1y, c2x, c2y] = forward ? [x1 + 60, y1 + bend, x2 - 60, y2 + bend] : [x1 + 60 + bend, y1 + 20, x2 + 60 + bend, y2 - 20];
    return [
      {
        e,
        d: `M ${x1} ${y1} C ${c1x} ${c1y}, ${c2x} ${c2y}, ${x2} ${y2}`,
        mx: bezier(0.3, x1, c1x, c2x, x2),
        my: bezier(0.3, y1, c1y, c2y, y2) + bend / 2,
      },
    ];
  });
  if (!shown.length) return <Text>No lineage yet: add an edge below, or install an app.</Text>;
  return (
    <figure className={s.frame} aria-label={`Lineage graph: ${shown.length} items, ${edges.length} edges`} data-testid="thread-graph">
      <div className={s.canvas} style={{ width, height }}>
        <svg width={width} height={height} style={{ position: 'absolute', inset: 0 }} aria-hidden="true">
          <defs>
            <marker id="arrow" viewBox="0 0 10 10" refX="9" refY="5" markerWidth="7" markerHeight="7" orient="auto-start-reverse">
              <path d="M 0 0 L 10 5 L 0 10 z" fill={tokens.colorNeutralForeground3} />
            </marker>
          </defs>
          {geometry.map((g) => (
            <path
              key={g.e.id}
              d={g.d}
              fill="none"
              stroke={g.e.source === 'user' ? tokens.colorBrandStroke1 : tokens.colorNeutralStroke1}
              strokeWidth={1.5}
              markerEnd="url(#arrow)"
              data-testid="thread-edge"
            />
          ))}
          {geometry.map(({ e, mx, my }) => {
            const w = e.kind.length * 6.4 + 10;
            return (
              <g key={e.id}>
                <rect
                  x={mx - w / 2}
                  y={my - 9}
                  width={w}
                  height={18}
                  rx={4}
                  fill={tokens.colorNeutralBackground1}
                  stroke={tokens.colorNeutralStroke2}
                />
                <text x={mx} y={my + 4} textAnchor="middle" fontSize={11} fill={tokens.colorNeutralForeground2}>
                  {e.kind}
                </text>
              </g>
            );
          })}
        </svg>
        {shown.map((i) => {
          const p = nodes.get(i.id)!;
          return (
            <button
              key={i.id}
              type="button"
              className={s.node}
              style={{ left: p.x, top: p.y }}
              data-testid="thread-node"
              title={`${i.displayName} (${i.itemType})`}
              onClick={() => navigate(`/workspaces/${i.workspaceId}/items/${i.id}`)}
            >
              <ItemTypeIcon itemType={i.itemType} title={i.itemType} />
              <span className={s.name}>{i.displayName}</span>
            </button>
          );
        })}
      </div>
    </figure>
  );
}
