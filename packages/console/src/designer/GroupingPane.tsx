import { useState } from 'react';
import { Button, makeStyles, Menu, MenuItem, MenuList, MenuPopover, MenuTrigger, Text, tokens } from '@fluentui/react-components';
import { MoreHorizontal20Regular } from '@fluentui/react-icons';
import { GroupDialog, type GroupForm } from './GroupDialog';
import { shownText } from './display';
import { dataSets, isNumericType } from './model/data';
import { contextFor } from './model/expression-check';
import { parameters } from './model/params';
import type { RdlDocument } from './model/report';
import { type Member, readTablix } from './model/tablix';
import {
  addChildGroup,
  addGroupRow,
  addParentGroup,
  addTotal,
  type Axis,
  deleteMember,
  memberAt,
  type MemberPath,
} from './model/tablix-groups';
import { groupDetails, setGroup } from './model/group-props';
import { contentItem } from './model/tablix';

const useStyles = makeStyles({
  root: { display: 'grid', gridTemplateColumns: '1fr 1fr', gap: '16px' },
  list: { display: 'grid', gap: '2px', alignContent: 'start', listStyleType: 'none', margin: 0, padding: 0 },
  member: {
    display: 'flex',
    alignItems: 'center',
    gap: '6px',
    padding: '2px 6px',
    borderRadius: tokens.borderRadiusMedium,
    backgroundColor: tokens.colorNeutralBackground1,
    border: `1px solid ${tokens.colorNeutralStroke2}`,
  },
  name: { flexGrow: 1, minWidth: 0, overflow: 'hidden', textOverflow: 'ellipsis', whiteSpace: 'nowrap' },
  hint: { color: tokens.colorNeutralForeground3 },
});

type Edit = (fn: (doc: RdlDocument) => void) => void;
type Dialog = { mode: 'parent' | 'child' | 'edit'; at: MemberPath; initial: GroupForm };

/** A member as the pane names it: its group (details, or what it groups on) or, when static, its header text. */
function describe(m: Member, axis: Axis): { label: string; hint: string } {
  if (m.group) {
    const on = m.group.expressions.join(', ');
    return { label: m.group.name, hint: on ? `on ${on}` : `(details: a ${axis} per record)` };
  }
  const header = shownText(contentItem(m.header?.contents));
  return { label: header || `Static ${axis} ${m.first + 1}`, hint: header ? `static ${axis}` : '' };
}

/** The grouping pane of a tablix: its row and column groups (nested), with parent and child groups, totals, sort and filters. */
export function GroupingPane({ doc, tablix, edit }: { doc: RdlDocument; tablix: string; edit: Edit }) {
  const s = useStyles();
  const el = doc.find(tablix);
  const [dialog, setDialog] = useState<Dialog | null>(null);
  if (!el) return null;
  const t = readTablix(el);
  const sets = dataSets(doc);
  const ctx = contextFor(doc, sets, parameters(doc), tablix);
  const fields = sets.find((x) => x.name === t.dataSet)?.fields ?? [];
  const numeric = (f: string) => isNumericType(fields.find((x) => x.name === f)?.typeName);

  const rows = (axis: Axis, list: Member[], path: number[] = [], depth = 0): React.ReactNode[] =>
    list.flatMap((m, i) => {
      const at: MemberPath = { axis, path: [...path, i] };
      const d = describe(m, axis);
      const item = (
        <li key={at.path.join('.')} className={s.member} style={{ marginLeft: depth * 14 }} data-group={m.group?.name ?? ''}>
          <span className={s.name}>
            <Text weight={m.group ? 'semibold' : 'regular'}>{d.label}</Text>{' '}
            <Text size={200} className={s.hint}>
              {d.hint}
            </Text>
          </span>
          <Menu>
            <MenuTrigger disableButtonEnhancement>
              <Button size="small" appearance="subtle" icon={<MoreHorizontal20Regular />} aria-label={`Actions of ${d.label}`} />
            </MenuTrigger>
            <MenuPopover>
              <MenuList>
                <MenuItem onClick={() => setDialog({ mode: 'parent', at, initial: { name: '', expression: '', sorts: [], filters: [] } })}>
                  Add parent group…
                </MenuItem>
                {m.group && (
                  <MenuItem onClick={() => setDialog({ mode: 'child', at, initial: { name: '', expression: '', sorts: [], filters: [] } })}>
                    Add child group…
                  </MenuItem>
                )}
                {m.group && <MenuItem onClick={() => edit((x) => addTotal(x, tablix, at, numeric))}>Add total</MenuItem>}
                {m.group && axis === 'row' && (
                  <MenuItem onClick={() => edit((x) => addGroupRow(x, tablix, at, 'header', numeric))}>Add group header row</MenuItem>
                )}
                {m.group && axis === 'row' && (
                  <MenuItem onClick={() => edit((x) => addGroupRow(x, tablix, at, 'footer', numeric))}>Add group footer row</MenuItem>
                )}
                {m.group && (
                  <MenuItem
                    onClick={() =>
                      setDialog({
                        mode: 'edit',
                        at,
                        initial: { name: m.group!.name, expression: m.group!.expressions[0] ?? '', ...groupDetails(memberAt(t, at)) },
                      })
                    }
                  >
                    Group properties…
                  </MenuItem>
                )}
                <MenuItem onClick={() => edit((x) => deleteMember(x, tablix, at))}>
                  {m.group ? 'Delete group (keep rows)' : 'Delete'}
                </MenuItem>
              </MenuList>
            </MenuPopover>
          </Menu>
        </li>
      );
      return [item, ...rows(axis, m.children, at.path, depth + 1)];
    });

  const save = (g: GroupForm) => {
    if (!dialog) return;
    const { mode, at } = dialog;
    setDialog(null);
    edit((x) => {
      const name =
        mode === 'parent'
          ? addParentGroup(x, tablix, at, g.expression)
          : mode === 'child'
            ? addChildGroup(x, tablix, at, g.expression)
            : dialog.initial.name;
      setGroup(x, tablix, name, {
        expressions: [g.expression],
        sorts: g.sorts,
        filters: g.filters,
        ...(mode === 'edit' && g.name !== name ? { name: g.name } : {}),
      });
    });
  };

  return (
    <section aria-label={`Grouping of ${tablix}`} data-testid="grouping">
      <div className={s.root}>
        <div>
          <Text weight="semibold">Row groups</Text>
          <ul className={s.list} aria-label="Row groups">
            {rows('row', t.rowMembers)}
          </ul>
        </div>
        <div>
          <Text weight="semibold">Column groups</Text>
          <ul className={s.list} aria-label="Column groups">
            {rows('column', t.colMembers)}
          </ul>
        </div>
      </div>
      {dialog && (
        <GroupDialog
          title={
            dialog.mode === 'edit' ? `Group ${dialog.initial.name}` : dialog.mode === 'parent' ? 'Add a parent group' : 'Add a child group'
          }
          initial={dialog.initial}
          context={ctx}
          nameEditable={dialog.mode === 'edit'}
          onClose={() => setDialog(null)}
          onSave={save}
        />
      )}
    </section>
  );
}
