/**
 * An ordered list that can be reordered three ways: dragging a row by its handle (pointer),
 * the handle with the keyboard (Space to lift, arrows to move, Space to drop, Escape to cancel;
 * dnd-kit's keyboard sensor, each step announced to screen readers), and the Move up / Move down
 * buttons of each row, which are plain form posts (they work without JavaScript).
 */
import {
  type Announcements,
  closestCenter,
  DndContext,
  type DragEndEvent,
  KeyboardSensor,
  PointerSensor,
  useSensor,
  useSensors,
} from "@dnd-kit/core";
import {
  arrayMove,
  SortableContext,
  sortableKeyboardCoordinates,
  useSortable,
  verticalListSortingStrategy,
} from "@dnd-kit/sortable";
import { CSS } from "@dnd-kit/utilities";
import { ArrowDown, ArrowUp, GripVertical } from "lucide-react";
import { type ReactNode, useEffect, useState } from "react";
import { Form, useNavigation } from "react-router";
import { cx } from "../../components/ui/cx.ts";

export interface SortableEntry {
  id: string;
  /** Read out by screen readers while dragging ("Moved Prompt basics to position 2 of 5"). */
  label: string;
}

const moveButton =
  "inline-flex size-8 items-center justify-center rounded-md border border-line text-ink-muted " +
  "hover:border-line-strong hover:text-ink disabled:opacity-40 disabled:hover:border-line";

/** A Move up / Move down form post for one row (the action reads the current order). */
export function MoveButtons({
  hidden,
  index,
  count,
  label,
}: {
  /** The form's fields (intent, id, version …) besides `dir`. */
  hidden: Record<string, string | number>;
  index: number;
  count: number;
  label: string;
}) {
  const busy = useNavigation().state === "submitting";
  return (
    <Form method="post" preventScrollReset className="flex gap-1">
      {Object.entries(hidden).map(([name, value]) => (
        <input key={name} type="hidden" name={name} value={value} />
      ))}
      <button
        type="submit"
        name="dir"
        value="up"
        className={moveButton}
        disabled={busy || index === 0}
        aria-label={`Move ${label} up`}
      >
        <ArrowUp aria-hidden="true" className="size-4" />
      </button>
      <button
        type="submit"
        name="dir"
        value="down"
        className={moveButton}
        disabled={busy || index === count - 1}
        aria-label={`Move ${label} down`}
      >
        <ArrowDown aria-hidden="true" className="size-4" />
      </button>
    </Form>
  );
}

function Row({ entry, children }: { entry: SortableEntry; children: ReactNode }) {
  const { attributes, listeners, setNodeRef, setActivatorNodeRef, transform, transition, isDragging } =
    useSortable({ id: entry.id });
  return (
    <li
      ref={setNodeRef}
      style={{ transform: CSS.Transform.toString(transform), transition }}
      className={cx(
        "flex items-center gap-2 bg-elevated px-3 py-2.5",
        isDragging && "relative z-10 rounded-lg shadow-lg ring-2 ring-accent",
      )}
      data-testid="sortable-row"
      data-id={entry.id}
    >
      <button
        type="button"
        ref={setActivatorNodeRef}
        className="inline-flex size-8 shrink-0 cursor-grab touch-none items-center justify-center rounded-md text-ink-subtle hover:bg-sunken hover:text-ink active:cursor-grabbing"
        aria-label={`Drag ${entry.label} to reorder`}
        {...attributes}
        {...listeners}
      >
        <GripVertical aria-hidden="true" className="size-4" />
      </button>
      <div className="flex min-w-0 flex-1 flex-wrap items-center justify-between gap-2">{children}</div>
    </li>
  );
}

/**
 * The rows of `entries` in order; a drop calls `onReorder` with the new order of ids (the caller
 * saves it). `dndId` keeps the generated ids the same on the server and in the browser.
 */
export function SortableList({
  dndId,
  entries,
  label,
  onReorder,
  renderRow,
}: {
  dndId: string;
  entries: readonly SortableEntry[];
  /** The list's accessible name. */
  label: string;
  onReorder(ids: string[]): void;
  renderRow(entry: SortableEntry, index: number): ReactNode;
}) {
  const [order, setOrder] = useState(() => entries.map((e) => e.id));
  const key = entries.map((e) => e.id).join(",");
  // A new list from the server (saved, reloaded) replaces the local order.
  // biome-ignore lint/correctness/useExhaustiveDependencies: `key` stands for `entries`
  useEffect(() => setOrder(entries.map((e) => e.id)), [key]);
  const byId = new Map(entries.map((e) => [e.id, e]));
  const shown = order.flatMap((id) => (byId.has(id) ? [byId.get(id)!] : []));
  const sensors = useSensors(
    useSensor(PointerSensor, { activationConstraint: { distance: 4 } }),
    useSensor(KeyboardSensor, { coordinateGetter: sortableKeyboardCoordinates }),
  );
  const nameOf = (id: string | number) => byId.get(String(id))?.label ?? "the item";
  const positionOf = (id: string | number) => order.indexOf(String(id)) + 1;
  const announcements: Announcements = {
    onDragStart: ({ active }) =>
      `Picked up ${nameOf(active.id)}, position ${positionOf(active.id)} of ${order.length}.`,
    onDragOver: ({ active, over }) =>
      over ? `${nameOf(active.id)} is over position ${positionOf(over.id)} of ${order.length}.` : undefined,
    onDragEnd: ({ active, over }) =>
      over
        ? `Dropped ${nameOf(active.id)} at position ${positionOf(over.id)} of ${order.length}.`
        : `Dropped ${nameOf(active.id)}.`,
    onDragCancel: ({ active }) =>
      `Cancelled. ${nameOf(active.id)} stays at position ${positionOf(active.id)}.`,
  };
  function onDragEnd(event: DragEndEvent) {
    const { active, over } = event;
    if (!over || active.id === over.id) return;
    const next = arrayMove(order, order.indexOf(String(active.id)), order.indexOf(String(over.id)));
    setOrder(next);
    onReorder(next);
  }
  return (
    <DndContext
      id={dndId}
      sensors={sensors}
      collisionDetection={closestCenter}
      onDragEnd={onDragEnd}
      accessibility={{
        announcements,
        screenReaderInstructions: {
          draggable:
            "To reorder, press Space or Enter to pick the item up, the arrow keys to move it, Space or Enter again to drop it, or Escape to cancel.",
        },
      }}
    >
      <SortableContext items={order} strategy={verticalListSortingStrategy}>
        <ol aria-label={label} className="divide-y divide-line overflow-hidden rounded-lg border border-line">
          {shown.map((entry, i) => (
            <Row key={entry.id} entry={entry}>
              {renderRow(entry, i)}
            </Row>
          ))}
        </ol>
      </SortableContext>
    </DndContext>
  );
}
