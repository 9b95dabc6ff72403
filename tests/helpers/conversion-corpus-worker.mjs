// A worker thread running the conversion corpus in one DOM (conversion-corpus.ts).
import { parentPort, workerData } from "node:worker_threads";
import { tsImport } from "tsx/esm/api";

const { convertCorpus } = await tsImport("./conversion-corpus.ts", import.meta.url);
parentPort.postMessage(await convertCorpus(workerData.dom, workerData.seeds));
