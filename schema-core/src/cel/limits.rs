//! The parser limits of cel-go (`parser.NewParser` defaults): an expression
//! is at most 100,000 code points, no grammar rule nests deeper than 250
//! while parsing (cel-go's `recursionListener` counts the depth of each rule
//! type; the generated parser leaves and re-enters a left-recursive rule at
//! each operator of a chain, so a chain counts once, and its right operands
//! as the recursive invocations they are), and the
//! compound nodes (ternaries, relations, arithmetic, selections, member
//! calls, indexes) nest at most 250 deep when the parse tree is visited
//! (`checkAndIncrementRecursionDepth`). The cel crate's
//! parser recurses on the parse tree, so these limits are enforced here,
//! on the tokens, before it runs.

/// cel-go's default `ExpressionSizeCodePointLimit`.
pub const EXPRESSION_SIZE_CODE_POINT_LIMIT: usize = 100_000;
/// cel-go's default `MaxRecursionDepth`.
pub const MAX_RECURSION_DEPTH: u32 = 250;

/// A violated parser limit, with cel-go's message.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct LimitError(pub String);

/// What the pre-scan found.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Shape {
    /// The deepest nesting of grammar rules (all rule types together): a
    /// measure of how much stack parsing the expression takes.
    pub max_total_depth: u32,
}

/// Checks the code point and recursion limits of `source`.
pub fn check_limits(source: &str) -> Result<Shape, LimitError> {
    let size = source.chars().count();
    if size > EXPRESSION_SIZE_CODE_POINT_LIMIT {
        return Err(LimitError(format!(
            "expression code point size exceeds limit: size: {size}, limit {EXPRESSION_SIZE_CODE_POINT_LIMIT}"
        )));
    }
    let toks = tokenize(source);
    let mut r = Recognizer {
        toks: &toks,
        pos: 0,
        depth: [0; RULES],
        total: 0,
        max_total: 0,
    };
    match r.start() {
        Ok(()) | Err(Stop::Syntax) => {}
        Err(Stop::Limit) => {
            return Err(LimitError(format!(
                "expression recursion limit exceeded: {MAX_RECURSION_DEPTH}"
            )));
        }
        Err(Stop::VisitLimit) => {
            return Err(LimitError("max recursion depth exceeded".into()));
        }
    }
    let mut max_total = r.max_total;
    if r.pos < toks.len() {
        // A syntax error stopped the recognizer: bound the rest crudely by
        // bracket nesting and chain length so that the parser still cannot
        // recurse without bound.
        let (nest, chain) = crude(&toks[r.pos..]);
        if nest > MAX_RECURSION_DEPTH || chain > MAX_RECURSION_DEPTH {
            return Err(LimitError(format!(
                "expression recursion limit exceeded: {MAX_RECURSION_DEPTH}"
            )));
        }
        max_total = max_total.max(nest.saturating_mul(10)).max(chain);
    }
    Ok(Shape {
        max_total_depth: max_total,
    })
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Tok {
    Ident,
    Literal,
    LParen,
    RParen,
    LBracket,
    RBracket,
    LBrace,
    RBrace,
    Dot,
    Comma,
    Colon,
    Question,
    OrOr,
    AndAnd,
    Not,
    Minus,
    Plus,
    MulOp,
    RelOp,
    Other,
}

fn tokenize(s: &str) -> Vec<Tok> {
    let chars: Vec<char> = s.chars().collect();
    let mut out = Vec::new();
    let mut i = 0;
    while i < chars.len() {
        let c = chars[i];
        if c.is_whitespace() {
            i += 1;
            continue;
        }
        if c == '/' && chars.get(i + 1) == Some(&'/') {
            while i < chars.len() && chars[i] != '\n' {
                i += 1;
            }
            continue;
        }
        // string and bytes literals, raw or not, single or triple quoted
        let mut j = i;
        while j < chars.len() && j < i + 2 && matches!(chars[j], 'r' | 'R' | 'b' | 'B') {
            j += 1;
        }
        if j < chars.len()
            && (chars[j] == '"' || chars[j] == '\'')
            && (j == i || is_prefix(&chars[i..j]))
        {
            let raw = chars[i..j].iter().any(|c| matches!(c, 'r' | 'R'));
            let q = chars[j];
            let triple = chars.get(j + 1) == Some(&q) && chars.get(j + 2) == Some(&q);
            let mut k = if triple { j + 3 } else { j + 1 };
            loop {
                if k >= chars.len() {
                    break;
                }
                if !raw && chars[k] == '\\' {
                    k += 2;
                    continue;
                }
                if triple {
                    if chars[k] == q && chars.get(k + 1) == Some(&q) && chars.get(k + 2) == Some(&q)
                    {
                        k += 3;
                        break;
                    }
                } else if chars[k] == q || chars[k] == '\n' {
                    k += 1;
                    break;
                }
                k += 1;
            }
            out.push(Tok::Literal);
            i = k;
            continue;
        }
        if c.is_ascii_alphabetic() || c == '_' {
            let start = i;
            while i < chars.len() && (chars[i].is_ascii_alphanumeric() || chars[i] == '_') {
                i += 1;
            }
            let word: String = chars[start..i].iter().collect();
            out.push(match word.as_str() {
                "true" | "false" | "null" => Tok::Literal,
                "in" => Tok::RelOp,
                _ => Tok::Ident,
            });
            continue;
        }
        if c.is_ascii_digit() {
            while i < chars.len()
                && (chars[i].is_ascii_alphanumeric()
                    || chars[i] == '.' && chars.get(i + 1).is_some_and(char::is_ascii_digit))
            {
                i += 1;
            }
            out.push(Tok::Literal);
            continue;
        }
        if c == '`' {
            i += 1;
            while i < chars.len() && chars[i] != '`' {
                i += 1;
            }
            i += 1;
            out.push(Tok::Ident);
            continue;
        }
        let two: String = chars[i..(i + 2).min(chars.len())].iter().collect();
        let (t, n) = match two.as_str() {
            "||" => (Tok::OrOr, 2),
            "&&" => (Tok::AndAnd, 2),
            "==" | "!=" | "<=" | ">=" => (Tok::RelOp, 2),
            _ => match c {
                '(' => (Tok::LParen, 1),
                ')' => (Tok::RParen, 1),
                '[' => (Tok::LBracket, 1),
                ']' => (Tok::RBracket, 1),
                '{' => (Tok::LBrace, 1),
                '}' => (Tok::RBrace, 1),
                '.' => (Tok::Dot, 1),
                ',' => (Tok::Comma, 1),
                ':' => (Tok::Colon, 1),
                '?' => (Tok::Question, 1),
                '!' => (Tok::Not, 1),
                '-' => (Tok::Minus, 1),
                '+' => (Tok::Plus, 1),
                '*' | '/' | '%' => (Tok::MulOp, 1),
                '<' | '>' => (Tok::RelOp, 1),
                _ => (Tok::Other, 1),
            },
        };
        out.push(t);
        i += n;
    }
    out
}

fn is_prefix(p: &[char]) -> bool {
    let s: String = p.iter().collect::<String>().to_ascii_lowercase();
    matches!(s.as_str(), "r" | "b" | "rb" | "br")
}

fn crude(toks: &[Tok]) -> (u32, u32) {
    let (mut nest, mut max_nest, mut chain, mut max_chain) = (0u32, 0u32, 0u32, 0u32);
    for t in toks {
        match t {
            Tok::LParen | Tok::LBracket | Tok::LBrace => {
                nest += 1;
                max_nest = max_nest.max(nest);
                chain = 0;
            }
            Tok::RParen | Tok::RBracket | Tok::RBrace => {
                nest = nest.saturating_sub(1);
            }
            Tok::Plus | Tok::Minus | Tok::MulOp | Tok::RelOp | Tok::Dot | Tok::Question => {
                chain += 1;
                max_chain = max_chain.max(chain);
            }
            _ => {}
        }
    }
    (max_nest, max_chain)
}

const RULES: usize = 17;

#[derive(Clone, Copy)]
enum Rule {
    Start,
    Expr,
    CondOr,
    CondAnd,
    Relation,
    Calc,
    Unary,
    Member,
    Primary,
    ExprList,
    ListInit,
    FieldInit,
    OptField,
    MapInit,
    EscapeIdent,
    OptExpr,
    Literal,
}

enum Stop {
    /// A grammar rule nested deeper than the limit (the parse listener).
    Limit,
    /// The compound nodes nested deeper than the limit (the visitor).
    VisitLimit,
    Syntax,
}

struct Recognizer<'t> {
    toks: &'t [Tok],
    pos: usize,
    depth: [u32; RULES],
    total: u32,
    max_total: u32,
}

/// A recognized subexpression: how deep the compound parse nodes
/// (ternaries, relations, arithmetic, selections, member calls, indexes)
/// nest in it, which is what cel-go's visitor counts.
type R = Result<u32, Stop>;

/// The visit depth of a left-associative chain of `k` compound nodes over
/// `first` and the right operands (or suffix arguments) `rest`: the first
/// operand is under all `k` nodes, the i-th right operand under `k - i + 1`.
fn chain_depth(first: u32, rest: &[u32]) -> u32 {
    let k = rest.len() as u32;
    let mut d = if k == 0 { first } else { k + first };
    for (i, r) in rest.iter().enumerate() {
        d = d.max(k - i as u32 + r);
    }
    d
}

impl Recognizer<'_> {
    fn peek(&self) -> Option<Tok> {
        self.toks.get(self.pos).copied()
    }

    fn peek_at(&self, n: usize) -> Option<Tok> {
        self.toks.get(self.pos + n).copied()
    }

    fn next(&mut self) {
        self.pos += 1;
    }

    fn expect(&mut self, t: Tok) -> Result<(), Stop> {
        if self.peek() == Some(t) {
            self.next();
            Ok(())
        } else {
            Err(Stop::Syntax)
        }
    }

    fn enter(&mut self, r: Rule) -> Result<(), Stop> {
        let d = &mut self.depth[r as usize];
        *d += 1;
        self.total += 1;
        self.max_total = self.max_total.max(self.total);
        if *d > MAX_RECURSION_DEPTH {
            return Err(Stop::Limit);
        }
        Ok(())
    }

    fn exit(&mut self, r: Rule) {
        let d = &mut self.depth[r as usize];
        *d = d.saturating_sub(1);
        self.total = self.total.saturating_sub(1);
    }

    fn start(&mut self) -> Result<(), Stop> {
        self.enter(Rule::Start)?;
        let d = self.expr()?;
        if self.pos != self.toks.len() {
            return Err(Stop::Syntax);
        }
        self.exit(Rule::Start);
        if d > MAX_RECURSION_DEPTH {
            return Err(Stop::VisitLimit);
        }
        Ok(())
    }

    fn expr(&mut self) -> R {
        self.enter(Rule::Expr)?;
        let mut d = self.cond_or()?;
        if self.peek() == Some(Tok::Question) {
            self.next();
            let e1 = self.cond_or()?;
            self.expect(Tok::Colon)?;
            let e2 = self.expr()?;
            d = 1 + d.max(e1).max(e2);
        }
        self.exit(Rule::Expr);
        Ok(d)
    }

    fn cond_or(&mut self) -> R {
        self.enter(Rule::CondOr)?;
        let mut d = self.cond_and()?;
        while self.peek() == Some(Tok::OrOr) {
            self.next();
            d = d.max(self.cond_and()?);
        }
        self.exit(Rule::CondOr);
        Ok(d)
    }

    fn cond_and(&mut self) -> R {
        self.enter(Rule::CondAnd)?;
        let mut d = self.relation()?;
        while self.peek() == Some(Tok::AndAnd) {
            self.next();
            d = d.max(self.relation()?);
        }
        self.exit(Rule::CondAnd);
        Ok(d)
    }

    fn relation(&mut self) -> R {
        self.enter(Rule::Relation)?;
        let first = self.calc(0)?;
        let mut rest = Vec::new();
        while self.peek() == Some(Tok::RelOp) {
            self.next();
            // The right operand is a recursive invocation of the rule.
            self.enter(Rule::Relation)?;
            rest.push(self.calc(0)?);
            self.exit(Rule::Relation);
        }
        self.exit(Rule::Relation);
        Ok(chain_depth(first, &rest))
    }

    fn calc(&mut self, p: u32) -> R {
        self.enter(Rule::Calc)?;
        let first = self.unary()?;
        let mut rest = Vec::new();
        loop {
            match self.peek() {
                Some(Tok::MulOp) if 2 >= p => {
                    self.next();
                    rest.push(self.calc(3)?);
                }
                Some(Tok::Plus | Tok::Minus) if 1 >= p => {
                    self.next();
                    rest.push(self.calc(2)?);
                }
                _ => break,
            }
        }
        self.exit(Rule::Calc);
        Ok(chain_depth(first, &rest))
    }

    fn unary(&mut self) -> R {
        self.enter(Rule::Unary)?;
        match self.peek() {
            Some(Tok::Not) => {
                while self.peek() == Some(Tok::Not) {
                    self.next();
                }
            }
            Some(Tok::Minus) if self.peek_at(1) != Some(Tok::Literal) => {
                while self.peek() == Some(Tok::Minus) {
                    self.next();
                }
            }
            _ => {}
        }
        let d = self.member()?;
        self.exit(Rule::Unary);
        Ok(d)
    }

    fn member(&mut self) -> R {
        self.enter(Rule::Member)?;
        let first = self.primary()?;
        let mut rest = Vec::new();
        loop {
            match self.peek() {
                Some(Tok::Dot) => {
                    self.next();
                    if self.peek() == Some(Tok::Question) {
                        self.next();
                    }
                    if self.peek() == Some(Tok::Ident) && self.peek_at(1) == Some(Tok::LParen) {
                        self.next();
                        self.next();
                        let mut args = 0;
                        if self.peek() != Some(Tok::RParen) {
                            args = self.expr_list()?;
                        }
                        self.expect(Tok::RParen)?;
                        rest.push(args);
                    } else {
                        self.enter(Rule::EscapeIdent)?;
                        self.expect(Tok::Ident)?;
                        self.exit(Rule::EscapeIdent);
                        rest.push(0);
                    }
                }
                Some(Tok::LBracket) => {
                    self.next();
                    if self.peek() == Some(Tok::Question) {
                        self.next();
                    }
                    let d = self.expr()?;
                    self.expect(Tok::RBracket)?;
                    rest.push(d);
                }
                _ => break,
            }
        }
        self.exit(Rule::Member);
        Ok(chain_depth(first, &rest))
    }

    fn primary(&mut self) -> R {
        self.enter(Rule::Primary)?;
        let mut d = 0;
        match self.peek() {
            Some(Tok::Dot | Tok::Ident) => {
                if self.peek() == Some(Tok::Dot) {
                    self.next();
                }
                // A message construction `a.b.C{...}` or an identifier/call.
                let mut n = 1;
                while self.peek_at(n) == Some(Tok::Dot) && self.peek_at(n + 1) == Some(Tok::Ident) {
                    n += 2;
                }
                if self.peek_at(n) == Some(Tok::LBrace) {
                    self.pos += n + 1;
                    if self.peek() != Some(Tok::RBrace) {
                        d = self.field_init()?;
                    }
                    if self.peek() == Some(Tok::Comma) {
                        self.next();
                    }
                    self.expect(Tok::RBrace)?;
                } else {
                    self.expect(Tok::Ident)?;
                    if self.peek() == Some(Tok::LParen) {
                        self.next();
                        if self.peek() != Some(Tok::RParen) {
                            d = self.expr_list()?;
                        }
                        self.expect(Tok::RParen)?;
                    }
                }
            }
            Some(Tok::LParen) => {
                self.next();
                d = self.expr()?;
                self.expect(Tok::RParen)?;
            }
            Some(Tok::LBracket) => {
                self.next();
                if !matches!(self.peek(), Some(Tok::RBracket | Tok::Comma)) {
                    self.enter(Rule::ListInit)?;
                    d = self.opt_expr()?;
                    while self.peek() == Some(Tok::Comma)
                        && !matches!(self.peek_at(1), Some(Tok::RBracket))
                    {
                        self.next();
                        d = d.max(self.opt_expr()?);
                    }
                    self.exit(Rule::ListInit);
                }
                if self.peek() == Some(Tok::Comma) {
                    self.next();
                }
                self.expect(Tok::RBracket)?;
            }
            Some(Tok::LBrace) => {
                self.next();
                if !matches!(self.peek(), Some(Tok::RBrace | Tok::Comma)) {
                    self.enter(Rule::MapInit)?;
                    loop {
                        d = d.max(self.opt_expr()?);
                        self.expect(Tok::Colon)?;
                        d = d.max(self.expr()?);
                        if self.peek() == Some(Tok::Comma)
                            && !matches!(self.peek_at(1), Some(Tok::RBrace))
                        {
                            self.next();
                            continue;
                        }
                        break;
                    }
                    self.exit(Rule::MapInit);
                }
                if self.peek() == Some(Tok::Comma) {
                    self.next();
                }
                self.expect(Tok::RBrace)?;
            }
            Some(Tok::Literal) | Some(Tok::Minus) => {
                self.enter(Rule::Literal)?;
                if self.peek() == Some(Tok::Minus) {
                    self.next();
                }
                self.expect(Tok::Literal)?;
                self.exit(Rule::Literal);
            }
            _ => return Err(Stop::Syntax),
        }
        self.exit(Rule::Primary);
        Ok(d)
    }

    fn field_init(&mut self) -> R {
        self.enter(Rule::FieldInit)?;
        let mut d = 0;
        loop {
            self.enter(Rule::OptField)?;
            if self.peek() == Some(Tok::Question) {
                self.next();
            }
            self.enter(Rule::EscapeIdent)?;
            self.expect(Tok::Ident)?;
            self.exit(Rule::EscapeIdent);
            self.exit(Rule::OptField);
            self.expect(Tok::Colon)?;
            d = d.max(self.expr()?);
            if self.peek() == Some(Tok::Comma) && !matches!(self.peek_at(1), Some(Tok::RBrace)) {
                self.next();
                continue;
            }
            break;
        }
        self.exit(Rule::FieldInit);
        Ok(d)
    }

    fn opt_expr(&mut self) -> R {
        self.enter(Rule::OptExpr)?;
        if self.peek() == Some(Tok::Question) {
            self.next();
        }
        let d = self.expr()?;
        self.exit(Rule::OptExpr);
        Ok(d)
    }

    fn expr_list(&mut self) -> R {
        self.enter(Rule::ExprList)?;
        let mut d = self.expr()?;
        while self.peek() == Some(Tok::Comma) {
            self.next();
            d = d.max(self.expr()?);
        }
        self.exit(Rule::ExprList);
        Ok(d)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn limits_chains_and_nesting_as_cel_go() {
        assert!(check_limits(&vec!["1"; 240].join(" + ")).is_ok());
        assert!(check_limits(&vec!["1"; 300].join(" + ")).is_err());
        assert!(check_limits(&format!("a{}", ".b".repeat(240))).is_ok());
        assert!(check_limits(&format!("a{}", ".b".repeat(300))).is_err());
        // 250 compound nodes are visited, 251 are not
        assert!(check_limits(&format!("a{}{}", ".b".repeat(200), " + 1".repeat(50))).is_ok());
        assert_eq!(
            check_limits(&format!("a{}{}", ".b".repeat(200), " + 1".repeat(51)))
                .unwrap_err()
                .0,
            "max recursion depth exceeded"
        );
        assert!(check_limits(&format!("{}1{}", "(".repeat(240), ")".repeat(240))).is_ok());
        assert!(check_limits(&format!("{}1{}", "(".repeat(260), ")".repeat(260))).is_err());
        assert!(check_limits(&vec!["true"; 5000].join(" && ")).is_ok());
        let long = "a".repeat(100_001);
        assert_eq!(
            check_limits(&long).unwrap_err().0,
            "expression code point size exceeds limit: size: 100001, limit 100000"
        );
        // broken input still bounded
        assert!(check_limits(&format!("{}1 #", "(".repeat(400))).is_err());
    }
}
