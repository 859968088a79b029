// A growable list of i32 in linear memory (candidates, events, results,
// watcher sets), allocated and freed by hand: nothing here is garbage collected.


@inline export function growBytes(ptr: usize, bytes: usize): usize {
  return ptr == 0 ? heap.alloc(bytes) : heap.realloc(ptr, bytes);
}

/** A growable list of i32 in linear memory. */
@unmanaged
export class IntList {
  data: usize = 0;
  length: i32 = 0;
  capacity: i32 = 0;

  @inline get(i: i32): i32 {
    return load<i32>(this.data + (<usize>i << 2));
  }

  @inline set(i: i32, value: i32): void {
    store<i32>(this.data + (<usize>i << 2), value);
  }

  push(value: i32): void {
    if (this.length == this.capacity) this.reserve(this.length + 1);
    store<i32>(this.data + (<usize>this.length << 2), value);
    this.length++;
  }

  reserve(count: i32): void {
    if (count <= this.capacity) return;
    let capacity = max(this.capacity << 1, 4);
    while (capacity < count) capacity <<= 1;
    this.data = growBytes(this.data, <usize>capacity << 2);
    this.capacity = capacity;
  }

  /** Removes one occurrence of value, moving the last entry into its place. */
  removeValue(value: i32): void {
    const last = this.length - 1;
    const data = this.data;
    for (let k = 0; k <= last; k++) {
      if (load<i32>(data + (<usize>k << 2)) == value) {
        store<i32>(data + (<usize>k << 2), load<i32>(data + (<usize>last << 2)));
        this.length = last;
        return;
      }
    }
  }

  /** Gives back the spare capacity (after a bulk load, where most sets stop growing). */
  fit(): void {
    if (this.capacity <= this.length + 4) return;
    const capacity = max(this.length, 4);
    this.data = heap.realloc(this.data, <usize>capacity << 2);
    this.capacity = capacity;
  }

  release(): void {
    if (this.data != 0) heap.free(this.data);
    this.data = 0;
    this.length = 0;
    this.capacity = 0;
  }
}

export function newIntList(): IntList {
  const list = changetype<IntList>(heap.alloc(offsetof<IntList>()));
  list.data = 0;
  list.length = 0;
  list.capacity = 0;
  return list;
}

export function freeIntList(list: IntList): void {
  list.release();
  heap.free(changetype<usize>(list));
}


/** Forgets drained events; a buffer grown past 4 MiB by a burst (a big build) is given back. */
export function forgetEvents(events: IntList): void {
  events.length = 0;
  if (events.capacity > 1 << 20) events.release();
}
