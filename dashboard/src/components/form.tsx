// Form pieces every page builds its forms from: a field with its label (its accessible name), a choice
// of radio buttons, a select, a form with its error and submit button, a delete button that asks first.
import type { ComponentChildren, InputHTMLAttributes } from 'preact';
import { ErrorBox } from './bits';

interface FieldProps {
  id: string;
  label: ComponentChildren;
  value: string;
  set: (v: string) => void;
  rows?: number; // a textarea of this many rows
  type?: string;
  name?: string;
  required?: boolean;
  autoComplete?: string;
  list?: string;
  min?: number;
  max?: number;
}

// The attributes besides go to the input as they are (preact's types tie `list` to some `type`s only).
export function Field({ id, label, value, set, rows, ...input }: FieldProps) {
  const onInput = (e: Event) => set((e.target as HTMLInputElement | HTMLTextAreaElement).value);
  return (
    <>
      <label for={id}>{label}</label>
      {rows ? (
        <textarea id={id} rows={rows} required={input.required} value={value} onInput={onInput} />
      ) : (
        <input id={id} {...(input as InputHTMLAttributes)} value={value} onInput={onInput} />
      )}
    </>
  );
}

// T: the options' own type (an API's enum), which every option the select offers is.
export function SelectField<T extends string>({
  id,
  label,
  value,
  set,
  options,
}: {
  id: string;
  label: string;
  value: T;
  set: (v: T) => void;
  options: readonly T[];
}) {
  return (
    <>
      <label for={id}>{label}</label>
      <select id={id} value={value} onChange={(e) => set((e.target as HTMLSelectElement).value as T)}>
        {options.map((o) => (
          <option key={o} value={o}>
            {o}
          </option>
        ))}
      </select>
    </>
  );
}

export function Choice<T extends string>({
  legend,
  name,
  options,
  value,
  set,
}: {
  legend: string;
  name: string;
  options: readonly (readonly [T, string])[];
  value: T;
  set: (v: T) => void;
}) {
  return (
    <fieldset>
      <legend>{legend}</legend>
      {options.map(([v, text]) => (
        <label key={v}>
          <input type="radio" name={name} value={v} checked={value === v} onChange={() => set(v)} /> {text}
        </label>
      ))}
    </fieldset>
  );
}

// label: the form's accessible name. Submitting never reloads the page: onSubmit does the work.
export function ActionForm(p: {
  label: string;
  class?: string;
  onSubmit: () => void;
  busy?: boolean;
  error?: string | undefined;
  submit: ComponentChildren;
  children: ComponentChildren;
}) {
  return (
    <form
      class={p.class}
      aria-label={p.label}
      onSubmit={(e) => {
        e.preventDefault();
        p.onSubmit();
      }}
    >
      {p.children}
      <ErrorBox error={p.error} />
      <button type="submit" disabled={p.busy}>
        {p.submit}
      </button>
    </form>
  );
}

// label: the button's accessible name and the question asked ("Delete x" → "Delete x?"), so a slip of
// the pointer deletes nothing.
export function DeleteButton({
  label,
  busy,
  onDelete,
  children = 'Delete',
}: {
  label: string;
  busy: boolean;
  onDelete: () => void;
  children?: ComponentChildren;
}) {
  return (
    <button type="button" class="danger" disabled={busy} aria-label={label} onClick={() => confirm(`${label}?`) && onDelete()}>
      {children}
    </button>
  );
}
