import { useEffect, useId, useRef, useState, type CSSProperties } from 'react';
import { createPortal } from 'react-dom';
import { DayPicker } from 'react-day-picker';
import { de } from 'react-day-picker/locale/de';
import { enUS } from 'react-day-picker/locale/en-US';
import 'react-day-picker/style.css';
import { useT } from '../i18n/use-t.js';
import { useResetOnChange } from '../shell/use-reset-on-change.js';
import { datePattern, formatCalendarDay, pageLocale, parseCalendarDay, type CalendarDay } from './local-format.js';

/** The calendar's words and first weekday for the window's language. */
function pickerLocale(locale: string) {
  return locale.startsWith('de') ? de : enUS;
}

/** Room the calendar needs below its field; with less, it opens above. */
const CALENDAR_HEIGHT = 340;

/** Where the calendar goes: under the field, or above it near the window's bottom edge. */
function popupPlace(field: HTMLElement): CSSProperties {
  const box = field.getBoundingClientRect();
  const gap = 4;
  const left = Math.max(gap, Math.min(box.left, window.innerWidth - 320));
  return box.bottom + gap + CALENDAR_HEIGHT > window.innerHeight ? { left, bottom: window.innerHeight - box.top + gap } : { left, top: box.bottom + gap };
}

/**
 * A day typed in the window's locale (`24.12.2026` in German, `12/24/2026` in English), with a
 * calendar to pick it from. Chromium's `<input type=date>` follows the OS, not the page's
 * language; this field follows the page. The text field's accessible name is `label`; the
 * calendar's button is `Choose <label>`. A day that cannot be read is marked invalid with the
 * expected form and changes nothing.
 */
export function DateField({
  label,
  value,
  near = null,
  disabled = false,
  invalid: invalidOutside = false,
  describedBy,
  fieldProps,
  onChange,
}: {
  label: string;
  value: CalendarDay | null;
  /** The month the calendar opens on while the field is empty (e.g. the start of a range); else this month. */
  near?: CalendarDay | null;
  disabled?: boolean;
  /** Marked invalid by the form (e.g. a day in the past), besides text that cannot be read. */
  invalid?: boolean;
  /** The id of the form's own explanation of the problem. */
  describedBy?: string | undefined;
  /** More attributes for the text field (e.g. a grid's `data-*` position). */
  fieldProps?: Record<`data-${string}`, string | number>;
  onChange: (day: CalendarDay | null) => void;
}) {
  const t = useT();
  const locale = pageLocale();
  const shown = value ? formatCalendarDay(value, locale) : '';
  const [text, setText] = useState(shown);
  const [invalid, setInvalid] = useState(false);
  const [open, setOpen] = useState(false);
  const [place, setPlace] = useState<CSSProperties>({});
  const wrapper = useRef<HTMLSpanElement>(null);
  const errorId = useId();
  const opensOn = value ?? near;
  const button = useRef<HTMLButtonElement>(null);
  const popup = useRef<HTMLDivElement>(null);
  const pattern = datePattern(locale)
    .replace('dd', t('dateField.dd'))
    .replace('mm', t('dateField.mm'))
    .replace('yyyy', t('dateField.yyyy'));

  // The value changes from outside too (a paste, fill down, Clear, another language).
  useResetOnChange(shown, (now) => {
    setText(now);
    setInvalid(false);
  });

  useEffect(() => {
    if (!open) return;
    const onDown = (event: PointerEvent) => {
      if (!popup.current?.contains(event.target as Node) && !button.current?.contains(event.target as Node)) setOpen(false);
    };
    document.addEventListener('pointerdown', onDown);
    return () => document.removeEventListener('pointerdown', onDown);
  }, [open]);

  const commit = (typed: string) => {
    if (typed.trim() === '') {
      setInvalid(false);
      if (value) onChange(null);
      return;
    }
    const day = parseCalendarDay(typed, locale);
    setInvalid(day === null);
    if (day && (!value || formatCalendarDay(day, locale) !== shown)) onChange(day);
  };
  const close = () => {
    setOpen(false);
    button.current?.focus();
  };

  return (
    <span ref={wrapper} className="date-field">
      <input
        {...fieldProps}
        type="text"
        inputMode="numeric"
        aria-label={label}
        placeholder={pattern}
        disabled={disabled}
        aria-invalid={invalid || invalidOutside || undefined}
        aria-describedby={[invalid ? errorId : undefined, describedBy].filter(Boolean).join(' ') || undefined}
        title={invalid ? t('dateField.invalid', { pattern }) : undefined}
        size={pattern.length + 1}
        value={text}
        onChange={(event) => setText(event.target.value)}
        onBlur={() => commit(text)}
        onKeyDown={(event) => {
          // A grid's fill down (Ctrl+D) reads the committed value, as Enter does.
          if (event.key === 'Enter' || ((event.ctrlKey || event.metaKey) && event.key.toLowerCase() === 'd')) commit(text);
        }}
      />
      {invalid && (
        <span id={errorId} className="visually-hidden">
          {t('dateField.invalid', { pattern })}
        </span>
      )}
      <button ref={button} type="button" className="date-field-button" disabled={disabled} aria-label={t('dateField.choose', { field: label })} aria-expanded={open} onClick={() => {
          if (!open && wrapper.current) setPlace(popupPlace(wrapper.current));
          setOpen(!open);
        }}
      >
        <span aria-hidden="true">▾</span>
      </button>
      {open &&
        // On the page's body: a pane's overflow or a row's stacking would cut or cover it.
        createPortal(
        <div
          ref={popup}
          className="date-field-popup"
          style={place}
          role="dialog"
          aria-label={t('dateField.calendar', { field: label })}
          onKeyDown={(event) => {
            if (event.key === 'Escape') {
              event.stopPropagation();
              close();
            }
          }}
        >
          <DayPicker
            mode="single"
            locale={pickerLocale(locale)}
            autoFocus
            defaultMonth={opensOn ? new Date(opensOn.year, opensOn.month - 1, 1) : undefined}
            selected={value ? new Date(value.year, value.month - 1, value.day) : undefined}
            onSelect={(date) => {
              onChange(date ? { year: date.getFullYear(), month: date.getMonth() + 1, day: date.getDate() } : null);
              close();
            }}
          />
        </div>,
        document.body,
      )}
    </span>
  );
}
