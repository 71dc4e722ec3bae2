// What a gateway process keeps in memory, per owner (a database client, a master key): API keys,
// secrets, channels, accounts. Owners are weakly held, so a stopped gateway's entries go with its
// client; each owner's map is bounded and simply emptied when full (entries are cheap to read
// again). Why each kind of entry can be trusted is said where it is cached.
const DEFAULT_SIZE = 10_000;

export interface ProcessCache<V> {
  get(owner: object, key: string): V | undefined;
  set(owner: object, key: string, value: V): void;
  delete(owner: object, key: string): void;
}

export function processCache<V>(size = DEFAULT_SIZE): ProcessCache<V> {
  const maps = new WeakMap<object, Map<string, V>>();
  const mapOf = (owner: object) => {
    let map = maps.get(owner);
    if (!map) maps.set(owner, (map = new Map()));
    return map;
  };
  return {
    get: (owner, key) => maps.get(owner)?.get(key),
    set(owner, key, value) {
      const map = mapOf(owner);
      if (map.size >= size) map.clear();
      map.set(key, value);
    },
    delete: (owner, key) => void maps.get(owner)?.delete(key),
  };
}
