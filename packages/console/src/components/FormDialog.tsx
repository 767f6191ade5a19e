import type { ReactNode } from 'react';
import { Button, Dialog, DialogActions, DialogBody, DialogContent, DialogSurface, DialogTitle } from '@fluentui/react-components';
import { ErrorMessage } from './RequestState';

/** A modal form: title, fields, the request's error, Cancel and a submit button. */
export function FormDialog({
  open,
  onClose,
  title,
  submitLabel,
  onSubmit,
  pending,
  error,
  disabled,
  danger,
  children,
}: {
  open: boolean;
  onClose: () => void;
  title: string;
  submitLabel: string;
  onSubmit: () => void;
  pending?: boolean;
  error?: unknown;
  disabled?: boolean;
  danger?: boolean;
  children: ReactNode;
}) {
  return (
    <Dialog open={open} onOpenChange={(_, d) => !d.open && onClose()}>
      <DialogSurface aria-describedby={undefined}>
        <form
          onSubmit={(e) => {
            e.preventDefault();
            onSubmit();
          }}
        >
          <DialogBody>
            <DialogTitle>{title}</DialogTitle>
            <DialogContent style={{ display: 'grid', gap: 12 }}>
              {children}
              {error ? <ErrorMessage error={error} /> : null}
            </DialogContent>
            <DialogActions>
              <Button appearance="secondary" onClick={onClose}>
                Cancel
              </Button>
              <Button
                appearance="primary"
                type="submit"
                disabled={pending || disabled}
                style={danger ? { backgroundColor: 'var(--colorPaletteRedBackground3)' } : undefined}
              >
                {pending ? 'Working…' : submitLabel}
              </Button>
            </DialogActions>
          </DialogBody>
        </form>
      </DialogSurface>
    </Dialog>
  );
}
