// A form whose fields show their own API error beneath them. <FieldForm outcome=…> holds the last
// mutation answer; each <Field name="items.0.name"> registers its name and wraps one input, which
// gets an id, aria-invalid and aria-describedby pointing at the message; <FieldGroup name="items">
// does the same for a fieldset (a group of checkboxes, a list of rows); <FormErrors/> shows what
// belongs to no field, once, at the top.
import { cloneElement, createContext, useContext, useId, useLayoutEffect, useMemo, useState, type FormEvent, type FormHTMLAttributes, type ReactElement, type ReactNode } from 'react';
import { useT } from '../i18n.ts';
import { splitErrors, UNREACHABLE, type ApiOutcome, type SplitErrors } from './field-errors.ts';

interface FieldContext { split: SplitErrors; register: (name: string) => () => void }
const Ctx = createContext<FieldContext | null>(null);

/** The form's own attributes (aria-label, aria-labelledby, autoComplete, …) pass through. */
type FormAttributes = Omit<FormHTMLAttributes<HTMLFormElement>, 'onSubmit' | 'children'>;

export function FieldForm({ outcome, onSubmit, className, children, ...form }: FormAttributes & { outcome: ApiOutcome | null | undefined; onSubmit: (e: FormEvent<HTMLFormElement>) => void; className?: string; children: ReactNode }) {
  const [names, setNames] = useState<ReadonlySet<string>>(new Set());
  const register = useMemo(
    () => (name: string) => {
      setNames((s) => (s.has(name) ? s : new Set(s).add(name)));
      return () => setNames((s) => { const n = new Set(s); n.delete(name); return n; });
    },
    [],
  );
  const split = useMemo(() => splitErrors(outcome, names), [outcome, names]);
  return (
    <Ctx.Provider value={{ split, register }}>
      <form {...form} className={className} onSubmit={onSubmit} noValidate>{children}</form>
    </Ctx.Provider>
  );
}

/** The form's failure heading and the messages that belong to no field. */
export function FormErrors() {
  const { t } = useT();
  const split = useContext(Ctx)?.split;
  if (!split?.failed && !split?.general.length) return null;
  return (
    <div className="form-errors" role="alert">
      <strong>{t.kitFormErrors}</strong>
      {split.general.length > 0 && <ul>{split.general.map((m) => <li key={m}>{m === UNREACHABLE ? t.kitServerDown : m}</li>)}</ul>}
    </div>
  );
}

/** A labelled input with its error underneath; the input is the one child element. */
export function Field({ name, label, hint, children }: { name: string; label: ReactNode; hint?: ReactNode; children: ReactElement<Record<string, unknown>> }) {
  const ctx = useContext(Ctx);
  const id = useId();
  const register = ctx?.register;
  useLayoutEffect(() => register?.(name), [register, name]);
  const errors = ctx?.split.byField.get(name) ?? [];
  const described = [children.props['aria-describedby'], hint ? `${id}-hint` : null, errors.length ? `${id}-error` : null].filter(Boolean).join(' ');
  const input = cloneElement(children, { id, name: children.props.name ?? name, 'aria-invalid': errors.length ? true : undefined, 'aria-describedby': described || undefined });
  return (
    <div className="field" data-field-name={name}>
      <label htmlFor={id}>{label}</label>
      {input}
      {hint && <p id={`${id}-hint`} className="muted">{hint}</p>}
      {errors.length > 0 && <p id={`${id}-error`} className="field-error">{errors.join(' ')}</p>}
    </div>
  );
}

/** A fieldset whose errors (the group's own name, e.g. "items" or "currencies") show under its legend. */
export function FieldGroup({ name, legend, className, children }: { name: string; legend: ReactNode; className?: string; children: ReactNode }) {
  const ctx = useContext(Ctx);
  const id = useId();
  const register = ctx?.register;
  useLayoutEffect(() => register?.(name), [register, name]);
  const errors = ctx?.split.byField.get(name) ?? [];
  return (
    <fieldset className={className} data-field-name={name} aria-describedby={errors.length ? `${id}-error` : undefined}>
      <legend>{legend}</legend>
      {errors.length > 0 && <p id={`${id}-error`} className="field-error">{errors.join(' ')}</p>}
      {children}
    </fieldset>
  );
}
