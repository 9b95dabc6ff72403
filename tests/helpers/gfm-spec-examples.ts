/**
 * The examples of the GitHub Flavored Markdown specification (version 0.29-gfm,
 * https://github.github.com/gfm/) in its extension sections: tables, task list
 * items, strikethrough and autolinks, numbered as in the specification. No
 * package holds them; they are written here from the specification.
 */
export const GFM_EXTENSION_EXAMPLES: readonly { number: number; section: string; markdown: string }[] = [
  { number: 198, section: "Tables (extension)", markdown: "| foo | bar |\n| --- | --- |\n| baz | bim |\n" },
  { number: 199, section: "Tables (extension)", markdown: "| abc | defghi |\n:-: | -----------:\nbar | baz\n" },
  { number: 200, section: "Tables (extension)", markdown: "| f\\|oo  |\n| ------ |\n| b `\\|` az |\n| b **\\|** im |\n" },
  { number: 201, section: "Tables (extension)", markdown: "| abc | def |\n| --- | --- |\n| bar | baz |\n> bar\n" },
  { number: 202, section: "Tables (extension)", markdown: "| abc | def |\n| --- | --- |\n| bar | baz |\nbar\n\nbar\n" },
  { number: 203, section: "Tables (extension)", markdown: "| abc | def |\n| --- |\n| bar |\n" },
  { number: 204, section: "Tables (extension)", markdown: "| abc | def |\n| --- | --- |\n| bar |\n| bar | baz | boo |\n" },
  { number: 205, section: "Tables (extension)", markdown: "| abc | def |\n| --- | --- |\n" },
  { number: 279, section: "Task list items (extension)", markdown: "- [ ] foo\n- [x] bar\n" },
  { number: 280, section: "Task list items (extension)", markdown: "- [x] foo\n  - [ ] bar\n  - [x] baz\n- [ ] bim\n" },
  { number: 491, section: "Strikethrough (extension)", markdown: "~~Hi~~ Hello, world!\n" },
  { number: 492, section: "Strikethrough (extension)", markdown: "This ~~has a\n\nnew paragraph~~.\n" },
  { number: 621, section: "Autolinks (extension)", markdown: "www.commonmark.org\n" },
  { number: 622, section: "Autolinks (extension)", markdown: "Visit www.commonmark.org/help for more information.\n" },
  { number: 623, section: "Autolinks (extension)", markdown: "Visit www.commonmark.org.\n\nVisit www.commonmark.org/a.b.\n" },
  { number: 624, section: "Autolinks (extension)", markdown: "www.google.com/search?q=Markup+(business)\n\nwww.google.com/search?q=Markup+(business)))\n\n(www.google.com/search?q=Markup+(business))\n\n(www.google.com/search?q=Markup+(business)\n" },
  { number: 625, section: "Autolinks (extension)", markdown: "www.google.com/search?q=(business))+ok\n" },
  { number: 626, section: "Autolinks (extension)", markdown: "www.google.com/search?q=commonmark&hl=en\n\nwww.google.com/search?q=commonmark&hl;\n" },
  { number: 627, section: "Autolinks (extension)", markdown: "www.commonmark.org/he<lp\n" },
  { number: 628, section: "Autolinks (extension)", markdown: "http://commonmark.org\n\n(Visit https://encrypted.google.com/search?q=Markup+(business))\n\nAnonymous FTP is available at ftp://foo.bar.baz.\n" },
  { number: 629, section: "Autolinks (extension)", markdown: "foo@bar.baz\n" },
  { number: 630, section: "Autolinks (extension)", markdown: "hello@mail+xyz.example isn't valid, but hello+xyz@mail.example is.\n" },
  { number: 631, section: "Autolinks (extension)", markdown: "a.b-c_d@a.b\n\na.b-c_d@a.b.\n\na.b-c_d@a.b-\n\na.b-c_d@a.b_\n" },
];
