// /metrics with WORKERS > 1: a scrape reaches one worker (the primary hands out connections), yet
// must show the whole gateway, or request counts would jump between workers' shares from scrape
// to scrape. The worker that is asked forwards the scrape to the primary, which gathers every
// worker's registry through prom-client's AggregatorRegistry (counters and histograms summed,
// each metric by its `aggregator`) and sends the text back. A single process answers alone.
import cluster from 'node:cluster';
import { randomUUID } from 'node:crypto';
import client from 'prom-client';

const SCRAPE = 'gateway:metrics-scrape';
const SCRAPED = 'gateway:metrics-scraped';
/** prom-client gives up on a worker that does not answer after 5 s; this waits a little longer. */
const SCRAPE_TIMEOUT_MS = 6_000;

interface ScrapeMessage {
  type: typeof SCRAPE;
  id: string;
}

interface ScrapedMessage {
  type: typeof SCRAPED;
  id: string;
  text?: string;
  error?: string;
}

/** In a worker: the registry the primary gathers. Without a primary, nothing to do. */
export function shareWithCluster(registry: client.Registry): void {
  if (!cluster.isWorker) return;
  client.AggregatorRegistry.setRegistries([registry]);
  // Constructing one installs prom-client's reply to the primary's requests in this worker.
  new client.AggregatorRegistry();
}

/** The exposition text of the whole gateway: this process's registry, or every worker's. */
export function scrape(registry: client.Registry): Promise<string> {
  return cluster.isWorker ? scrapeThroughPrimary() : registry.metrics();
}

function scrapeThroughPrimary(): Promise<string> {
  const id = randomUUID();
  return new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => finish(new Error('the primary did not answer the metrics scrape')), SCRAPE_TIMEOUT_MS);
    const onMessage = (m: ScrapedMessage) => {
      if (m?.type !== SCRAPED || m.id !== id) return;
      finish(m.error ? new Error(m.error) : null, m.text ?? '');
    };
    function finish(err: Error | null, text = '') {
      clearTimeout(timer);
      process.off('message', onMessage);
      if (err) reject(err);
      else resolve(text);
    }
    process.on('message', onMessage);
    process.send!({ type: SCRAPE, id } satisfies ScrapeMessage);
  });
}

/** In the primary: answers the workers' scrapes with the gathered metrics of all of them. */
export function serveClusterScrapes(): void {
  const aggregator = new client.AggregatorRegistry();
  cluster.on('message', (worker, m: ScrapeMessage) => {
    if (m?.type !== SCRAPE) return;
    const reply = (answer: Omit<ScrapedMessage, 'type' | 'id'>) => {
      if (worker.isConnected()) worker.send({ type: SCRAPED, id: m.id, ...answer } satisfies ScrapedMessage);
    };
    aggregator.clusterMetrics().then(
      (text) => reply({ text }),
      (err: Error) => reply({ error: err.message }),
    );
  });
}
