import { makeStyles, tokens } from '@fluentui/react-components';
import { type DragPayload, startDrag } from './dnd';

const useStyles = makeStyles({
  field: {
    cursor: 'grab',
    padding: '1px 4px',
    border: 'none',
    background: 'none',
    color: tokens.colorNeutralForeground1,
    textAlign: 'left',
    width: '100%',
    fontSize: tokens.fontSizeBase200,
    ':hover': { backgroundColor: tokens.colorNeutralBackground1Hover },
  },
});

/** A field or model column in the report data pane: dragged onto the surface, or placed at the selection with Enter. */
export function FieldButton({
  payload,
  label,
  title,
  onPlace,
  ...data
}: {
  payload: DragPayload;
  label: string;
  title: string;
  onPlace: (p: DragPayload) => void;
  'data-field'?: string;
  'data-column'?: string;
}) {
  const s = useStyles();
  return (
    <button
      type="button"
      draggable
      className={s.field}
      title={title}
      onDragStart={(e) => startDrag(e, payload)}
      onClick={() => onPlace(payload)}
      {...data}
    >
      {label}
    </button>
  );
}
