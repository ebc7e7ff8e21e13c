"""The namespace and key prefix a `t` the code is handed has by its TypeScript type:
`(t: TFunction<'errors', 'deep.nested'>) => …`, `({ t }: { t: TFunction<'auth'> })`,
`props: WithTranslation<'auth'>`, or a type of the file that declares its `t` so.
"""

from __future__ import annotations

from collections.abc import Callable

import tree_sitter

from i18nprune.scan.expressions import OPAQUE, Expr
from i18nprune.scan.facts import Translator
from i18nprune.scan.scopes import FUNCTIONS, destructured_field, named_child, plain_string
from i18nprune.syntax_tree import node_text

# i18next's type of a translation function: `TFunction<Ns, KeyPrefix>`.
_T_FUNCTION = "TFunction"
# react-i18next's and i18next's props types whose `t` is a `TFunction<Ns, KeyPrefix>`.
_WITH_T = frozenset({"WithTranslation", "WithT"})
_PARAMETERS = frozenset({"required_parameter", "optional_parameter"})
_TYPE_DECLARATIONS = frozenset({"interface_declaration", "type_alias_declaration"})
_MAX_DEPTH = 8
_UNDECLARED = object()


class TypedTranslators:
    """Finds the types of the parameters a `t` comes from in one file. `value_of` gives the
    static value of a type argument's string literal."""

    def __init__(self, root: tree_sitter.Node, value_of: Callable[[tree_sitter.Node], Expr]):
        self._root = root
        self._value_of = value_of
        self._declared: dict[str, tree_sitter.Node] | None = None

    def of_name(self, name: str, reference: tree_sitter.Node) -> Translator | None:
        """What the parameter `name` (or the property `t` destructured as `name`) visible at
        `reference` is typed as, when its type is i18next's; `None` otherwise."""
        return self._of_parameter(name, None, reference)

    def of_member(self, name: str, prop: str, reference: tree_sitter.Node) -> Translator | None:
        """What `name.prop` (`props.t`) is typed as, with `name` a parameter."""
        return self._of_parameter(name, prop, reference)

    def _of_parameter(
        self, name: str, prop: str | None, reference: tree_sitter.Node
    ) -> Translator | None:
        function = reference.parent
        while function is not None:
            if function.type in FUNCTIONS:
                found = self._in_parameters(function, name, prop)
                if found is not _UNDECLARED:
                    return found if isinstance(found, Translator) else None
            function = function.parent
        return None

    def _in_parameters(
        self, function: tree_sitter.Node, name: str, prop: str | None
    ) -> Translator | object | None:
        parameters = function.child_by_field_name("parameters")
        if parameters is None:
            single = function.child_by_field_name("parameter")  # `t => …`: no type
            return None if single is not None and node_text(single) == name else _UNDECLARED
        for parameter in parameters.named_children:
            if parameter.type not in _PARAMETERS:
                continue
            pattern = parameter.child_by_field_name("pattern")
            annotation = parameter.child_by_field_name("type")
            type_node = named_child(annotation, 0) if annotation is not None else None
            if pattern is None:
                continue
            if pattern.type == "identifier" and node_text(pattern) == name:
                if type_node is None:
                    return None
                if prop is None:
                    return self._translator(type_node, 0)
                return self._member_translator(type_node, prop, 0)
            if pattern.type == "object_pattern" and prop is None:
                field = destructured_field(pattern, name)
                if field is not None:
                    return self._member_translator(type_node, field, 0) if type_node else None
        return _UNDECLARED

    def _translator(self, type_node: tree_sitter.Node, depth: int) -> Translator | None:
        """The translator a type is: `TFunction<Ns, KeyPrefix>`, or a name for it declared
        in the file (`type Tr = TFunction<'auth'>`)."""
        name, arguments = _generic(type_node)
        if name == _T_FUNCTION:
            return self._t_function(arguments)
        declared = self._declaration(name) if name is not None and depth < _MAX_DEPTH else None
        if declared is not None and declared.type == "type_alias_declaration":
            value = declared.child_by_field_name("value")
            return self._translator(value, depth + 1) if value is not None else None
        return None

    def _member_translator(
        self, type_node: tree_sitter.Node, prop: str, depth: int
    ) -> Translator | None:
        """The translator the property `prop` of an object type is typed as."""
        if depth >= _MAX_DEPTH:
            return None
        kind = type_node.type
        if kind in ("object_type", "interface_body"):
            for member in type_node.named_children:
                key = (
                    member.child_by_field_name("name")
                    if member.type == "property_signature"
                    else None
                )
                if key is not None and (plain_string(key) or node_text(key)) == prop:
                    annotation = member.child_by_field_name("type")
                    inner = named_child(annotation, 0) if annotation is not None else None
                    return self._translator(inner, depth + 1) if inner is not None else None
            return None
        if kind in ("intersection_type", "parenthesized_type"):
            for part in type_node.named_children:
                found = self._member_translator(part, prop, depth + 1)
                if found is not None:
                    return found
            return None
        name, arguments = _generic(type_node)
        if name in _WITH_T:
            return self._t_function(arguments) if prop == "t" else None
        declared = self._declaration(name) if name is not None else None
        if declared is None:
            return None
        if declared.type == "type_alias_declaration":
            value = declared.child_by_field_name("value")
            return self._member_translator(value, prop, depth + 1) if value is not None else None
        for part in declared.named_children:  # an interface: its body, then what it extends
            if part.type == "interface_body":
                found = self._member_translator(part, prop, depth + 1)
            elif part.type == "extends_type_clause":
                found = next(
                    (
                        result
                        for parent in part.named_children
                        if (result := self._member_translator(parent, prop, depth + 1))
                    ),
                    None,
                )
            else:
                continue
            if found is not None:
                return found
        return None

    def _t_function(self, arguments: list[tree_sitter.Node]) -> Translator | None:
        """`TFunction<Ns, KeyPrefix>`: bound to `Ns` (the first of a tuple), under `KeyPrefix`.
        A bare `TFunction` says nothing: without typed resources any `t` may be passed as one
        (`None`)."""
        if not arguments:
            return None
        namespaces = _literals(arguments[0]) if arguments else []
        values = [self._value_of(literal) for literal in namespaces]
        prefix_literals = _literals(arguments[1]) if len(arguments) > 1 else []
        prefix = self._value_of(prefix_literals[0]) if len(prefix_literals) == 1 else None
        namespace: Expr | None = values[0] if values else None
        if arguments and not values and node_text(arguments[0]) != "undefined":
            namespace = OPAQUE  # a type the file does not spell (`Ns`): any namespace
        return Translator(prefix, namespace, scope=values if len(values) > 1 else [], typed=True)

    def _declaration(self, name: str) -> tree_sitter.Node | None:
        """The interface or type alias `name` declared at the file's top level."""
        if self._declared is None:
            self._declared = {}
            for statement in self._root.named_children:
                declaration = statement
                if statement.type == "export_statement":
                    declaration = statement.child_by_field_name("declaration") or statement
                if declaration.type in _TYPE_DECLARATIONS:
                    identifier = declaration.child_by_field_name("name")
                    if identifier is not None:
                        self._declared.setdefault(node_text(identifier), declaration)
        return self._declared.get(name)


def _generic(type_node: tree_sitter.Node) -> tuple[str | None, list[tree_sitter.Node]]:
    """The name of a type reference (`TFunction`, `i18next.TFunction`) and its arguments."""
    name_node = type_node
    arguments: list[tree_sitter.Node] = []
    if type_node.type == "generic_type":
        name_node = type_node.child_by_field_name("name") or type_node
        listed = type_node.child_by_field_name("type_arguments")
        arguments = list(listed.named_children) if listed is not None else []
    if name_node.type == "nested_type_identifier":
        name_node = name_node.named_children[-1]
    if name_node.type != "type_identifier":
        return None, []
    return node_text(name_node), arguments


def _literals(type_node: tree_sitter.Node) -> list[tree_sitter.Node]:
    """The string literals a type argument spells: `'auth'`, or each of `['auth', 'common']`."""
    if type_node.type == "literal_type":
        literal = named_child(type_node, 0)
        return [literal] if literal is not None and literal.type == "string" else []
    if type_node.type in ("tuple_type", "readonly_type"):
        return [found for item in type_node.named_children for found in _literals(item)]
    return []
