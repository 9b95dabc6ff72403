/**
 * The DOM the conversion worker ran BlockNote's conversions in before the
 * Markdown syntax tree converter: linkedom's document, with HTML parsed by
 * parse5 and the few behaviours of a browser's DOM that BlockNote reads and
 * linkedom lacks. Kept only for the benchmark's baseline
 * (bench/baseline/blocknote-conversions.ts).
 */
import { parseHTML } from "linkedom";
import { defaultTreeAdapter, html as parse5Html, parseFragment, serialize, serializeOuter, type DefaultTreeAdapterMap, type TreeAdapter } from "parse5";

type P5Node = DefaultTreeAdapterMap["node"];
type P5Parent = DefaultTreeAdapterMap["parentNode"];

const HTML_NS = "http://www.w3.org/1999/xhtml";
const FILTER_ACCEPT = 1;

export type LightDom = { window: Window & typeof globalThis; document: Document };

export function createLightDom(): LightDom {
  const { window, document } = parseHTML("<!doctype html><html><head><title></title></head><body></body></html>") as unknown as LightDom;
  const proto = (name: string) => (window as unknown as Record<string, { prototype: object }>)[name]!.prototype;

  // Markup is parsed as a browser parses it, in the element's context and
  // with the standard's error recovery (linkedom's own parser keeps broken
  // markup as written), and written out as a browser writes it (linkedom
  // leaves `&` in attribute values as it is, so markup read back differs).
  const elementProto = proto("Element");
  Object.defineProperty(elementProto, "outerHTML", {
    configurable: true,
    get(this: Element) {
      return serializeOuter(this as never, { treeAdapter });
    },
  });
  Object.defineProperty(elementProto, "innerHTML", {
    configurable: true,
    get(this: Element) {
      return serialize(this as never, { treeAdapter });
    },
    set(this: Element, markup: string) {
      const context = defaultTreeAdapter.createElement(this.localName, (this.namespaceURI ?? HTML_NS) as parse5Html.NS, []);
      const fragment = parseFragment(context, String(markup), {});
      const target = this.localName === "template" ? (this as HTMLTemplateElement).content : this;
      target.replaceChildren();
      appendParsed(this.ownerDocument, target, fragment);
    },
  });

  // A checkbox's state and an input's type, as BlockNote reads and sets them.
  const inputProto = proto("HTMLInputElement");
  Object.defineProperty(inputProto, "checked", {
    configurable: true,
    get(this: Element) {
      return this.hasAttribute("checked");
    },
    set(this: Element, value: unknown) {
      this.toggleAttribute("checked", Boolean(value));
    },
  });
  Object.defineProperty(inputProto, "type", {
    configurable: true,
    get(this: Element) {
      return (this.getAttribute("type") ?? "text").toLowerCase();
    },
    set(this: Element, value: unknown) {
      this.setAttribute("type", String(value));
    },
  });

  // URLs and sizes of media and links, read as JSDOM reads them: linkedom
  // returns an image's source as written, has none for video or audio, and
  // throws on a link to "100%".
  const htmlElementProto = proto("HTMLElement");
  const optionalProto = (name: string) => (window as unknown as Record<string, { prototype?: object } | undefined>)[name]?.prototype;
  for (const [property, tags] of URL_PROPERTIES) {
    for (const target of [htmlElementProto, ...ELEMENT_CLASSES.map(optionalProto)]) if (target) defineUrl(target, property, tags);
  }
  for (const target of [htmlElementProto, proto("HTMLImageElement")]) {
    defineNumber(target, "width");
    defineNumber(target, "height");
  }

  // A tree walker that asks its filter, as BlockNote's whitespace folding
  // relies on to leave code blocks alone.
  const documentProto = proto("Document");
  const createTreeWalker = (documentProto as Document).createTreeWalker as (root: Node, whatToShow?: number) => TreeWalker;
  Object.defineProperty(documentProto, "createTreeWalker", {
    configurable: true,
    value(this: Document, root: Node, whatToShow?: number, filter?: NodeFilter | null) {
      const walker = createTreeWalker.call(this, root, whatToShow);
      if (!filter) return walker;
      const accept = typeof filter === "function" ? filter : (node: Node) => filter.acceptNode(node);
      const next = walker.nextNode.bind(walker);
      walker.nextNode = () => {
        for (let node = next(); node; node = next()) if (accept(node) === FILTER_ACCEPT) return node;
        return null;
      };
      return walker;
    },
  });

  // BlockNote parses markup into a document of its own.
  Object.defineProperty(document, "implementation", {
    configurable: true,
    value: { createHTMLDocument: () => document },
  });

  return { window, document };
}

function appendParsed(document: Document, target: Node, from: P5Parent): void {
  for (const node of from.childNodes as P5Node[]) {
    if (node.nodeName === "#text") {
      target.appendChild(document.createTextNode((node as DefaultTreeAdapterMap["textNode"]).value));
    } else if (node.nodeName === "#comment") {
      target.appendChild(document.createComment((node as DefaultTreeAdapterMap["commentNode"]).data));
    } else if ("tagName" in node) {
      const element = node.namespaceURI === HTML_NS ? document.createElement(node.tagName) : document.createElementNS(node.namespaceURI, node.tagName);
      for (const attr of node.attrs) element.setAttribute(attr.prefix ? `${attr.prefix}:${attr.name}` : attr.name, attr.value);
      target.appendChild(element);
      const content = node.tagName === "template" ? (node as DefaultTreeAdapterMap["template"]).content : node;
      appendParsed(document, node.tagName === "template" ? (element as HTMLTemplateElement).content : element, content);
    }
  }
}

/** The elements whose URL attribute a property reads, by property. */
const URL_PROPERTIES: [string, Set<string>][] = [
  ["src", new Set(["img", "video", "audio", "source", "iframe", "embed", "track", "input", "script"])],
  ["href", new Set(["a", "area", "link", "base"])],
];

/** linkedom's element classes that may define such a property over HTMLElement's. */
const ELEMENT_CLASSES = ["Image", "Video", "Audio", "Source", "IFrame", "Embed", "Track", "Input", "Script", "Anchor", "Area", "Link", "Base"].map((name) => `HTML${name}Element`);

/**
 * A property that reflects an attribute on some elements only; on any other
 * element it is an ordinary property of that element, as in a browser.
 */
function defineOn(target: object, property: string, tags: Set<string>, get: (element: Element) => unknown, set: (element: Element, value: unknown) => void): void {
  const own = new WeakMap<Element, unknown>();
  Object.defineProperty(target, property, {
    configurable: true,
    get(this: Element) {
      return tags.has(this.localName) ? get(this) : own.get(this);
    },
    set(this: Element, value: unknown) {
      if (tags.has(this.localName)) set(this, value);
      else own.set(this, value);
    },
  });
}

/** A URL attribute as a document at about:blank reads it: resolved when absolute, as written otherwise. */
function defineUrl(target: object, property: string, tags: Set<string>): void {
  defineOn(
    target,
    property,
    tags,
    (element) => {
      const value = element.getAttribute(property);
      if (value === null) return "";
      return URL.parse(value)?.href ?? value;
    },
    (element, value) => element.setAttribute(property, String(value)),
  );
}

const TWO_TO_32 = 2 ** 32;
const MAX_REFLECTED = 2147483647;

/**
 * An image's or a video's width or height. An image converts its attribute as
 * a number (WebIDL's unsigned long); a video reads it by the HTML standard's
 * rules for non-negative integers, 0 when it has none.
 */
function defineNumber(target: object, property: string): void {
  defineOn(
    target,
    property,
    new Set(["img", "video"]),
    (element) => {
      const value = element.getAttribute(property);
      if (value === null) return 0;
      if (element.localName === "img") return toUint32(value);
      const match = /^[\t\n\f\r ]*\+?(\d+)/.exec(value);
      const number = match ? Number(match[1]) : 0;
      return number <= MAX_REFLECTED ? number : 0;
    },
    (element, value) => {
      const number = toUint32(value);
      element.setAttribute(property, String(element.localName === "img" || number <= MAX_REFLECTED ? number : 0));
    },
  );
}

function toUint32(value: unknown): number {
  const number = Number(value);
  return Number.isFinite(number) ? ((Math.trunc(number) % TWO_TO_32) + TWO_TO_32) % TWO_TO_32 : 0;
}

/** parse5's serializer reading linkedom's nodes: only what serializing asks of a tree. */
const treeAdapter = {
  isElementNode: (node: Node) => node.nodeType === 1,
  isTextNode: (node: Node) => node.nodeType === 3,
  isCommentNode: (node: Node) => node.nodeType === 8,
  isDocumentTypeNode: (node: Node) => node.nodeType === 10,
  getTagName: (element: Element) => element.localName,
  getNamespaceURI: (element: Element) => element.namespaceURI ?? HTML_NS,
  getAttrList: (element: Element) => Array.from(element.attributes, (attr) => ({ name: attr.name, value: attr.value })),
  getChildNodes: (node: Node) => Array.from(node.childNodes),
  getTemplateContent: (element: HTMLTemplateElement) => element.content,
  getParentNode: (node: Node) => node.parentNode,
  getTextNodeContent: (node: Text) => node.data,
  getCommentNodeContent: (node: Comment) => node.data,
  getDocumentTypeNodeName: (node: DocumentType) => node.name,
} as unknown as TreeAdapter<DefaultTreeAdapterMap>;
