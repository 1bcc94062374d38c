//! Go's parse tree (`syntax.Regexp`, `syntax.Op`, `syntax.Flags`), as an arena of
//! nodes.

// Parse flags (`syntax.Flags`).
pub(crate) const FOLD_CASE: u16 = 1;
pub(super) const CLASS_NL: u16 = 1 << 2;
pub(super) const DOT_NL: u16 = 1 << 3;
pub(super) const ONE_LINE: u16 = 1 << 4;
pub(super) const NON_GREEDY: u16 = 1 << 5;
pub(super) const PERL_X: u16 = 1 << 6;
pub(super) const UNICODE_GROUPS: u16 = 1 << 7;
pub(super) const WAS_DOLLAR: u16 = 1 << 8;
/// `syntax.Perl`, the flags `regexp.Compile` parses with.
pub(super) const PERL: u16 = CLASS_NL | ONE_LINE | PERL_X | UNICODE_GROUPS;

/// `syntax.Op`, in Go's order (the order matters to the class merging).
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Default)]
pub(crate) enum Op {
    #[default]
    NoMatch = 1,
    EmptyMatch,
    Literal,
    CharClass,
    AnyCharNotNl,
    AnyChar,
    BeginLine,
    EndLine,
    BeginText,
    EndText,
    WordBoundary,
    NoWordBoundary,
    Capture,
    Star,
    Plus,
    Quest,
    Repeat,
    Concat,
    Alternate,
    /// Pseudo-op `(` on the parse stack.
    LeftParen = 128,
    /// Pseudo-op `|` on the parse stack.
    VerticalBar,
}

impl Op {
    pub(super) fn is_pseudo(self) -> bool {
        self >= Op::LeftParen
    }
}

/// An index into the node arena.
pub(crate) type NodeId = usize;

/// `syntax.Regexp`: one node of the tree (an arena slot).
#[derive(Debug, Clone, Default)]
pub(crate) struct Node {
    pub(crate) op: Op,
    pub(crate) flags: u16,
    pub(crate) sub: Vec<NodeId>,
    pub(crate) runes: Vec<i32>,
    pub(crate) min: i32,
    pub(crate) max: i32,
    pub(super) cap: usize,
}

/// What a node id outside the arena reads as.
pub(super) static EMPTY_NODE: Node = Node {
    op: Op::NoMatch,
    flags: 0,
    sub: Vec::new(),
    runes: Vec::new(),
    min: 0,
    max: 0,
    cap: 0,
};

/// The result of a successful parse.
pub(crate) struct Tree {
    pub(super) nodes: Vec<Node>,
    pub(crate) root: NodeId,
}

impl Tree {
    /// Whether the tree is higher than `limit` (without recursion; a malformed
    /// tree that shares nodes also counts as high).
    pub(crate) fn height_exceeds(&self, limit: usize) -> bool {
        let mut todo = vec![(self.root, 1usize)];
        let mut visits = 0usize;
        while let Some((id, depth)) = todo.pop() {
            visits += 1;
            if depth > limit || visits > self.nodes.len() {
                return true;
            }
            todo.extend(self.nd(id).sub.iter().map(|&s| (s, depth + 1)));
        }
        false
    }

    /// The node `id` (an empty `NoMatch` node if `id` is out of range).
    pub(crate) fn nd(&self, id: NodeId) -> &Node {
        self.nodes.get(id).unwrap_or(&EMPTY_NODE)
    }
}
