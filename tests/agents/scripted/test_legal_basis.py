"""Art. 65 is cited for a recidivist only (``agents.scripted.legal_basis``): a prior record the
prosecution itself says is no recidivism (虽不构成累犯, SimCourt case 0's shape, an even folder)
neither aggravates as recidivism nor puts art. 65 in the legal basis."""

from __future__ import annotations

import pytest

from agents.scripted.criminal_ruling import criminal_decision
from agents.scripted.legal_basis import criminal_basis
from agents.scripted.record import CriminalRecord, Exhibit

CRIMINAL_RECORD = Exhibit("prosecution", "刑事判决书", "被告人的前科：曾因故意伤害罪被判处有期徒刑一年", True)


def drunk_driving(prosecution: str) -> CriminalRecord:
    return CriminalRecord(
        language="zh",
        charges=("危险驾驶罪",),
        recommendation={"penalty": "criminal_detention", "imprisonment_months": 3},
        indictment="被告人醉酒驾驶机动车。",
        defendant_info="被告人某某，男。曾因犯故意伤害罪被判处有期徒刑一年。",
        exhibits=(Exhibit("prosecution", "鉴定意见", "血液酒精含量", True), CRIMINAL_RECORD),
        defence_words="",
        prosecution_words=prosecution,
    )


@pytest.mark.parametrize(
    ("prosecution", "recidivist", "why"),
    [
        ("被告人刑满释放后五年内再犯，系累犯，应当从重处罚。", True, "累犯 said: art. 65"),
        ("被告人曾因故意犯罪被判处有期徒刑，虽不构成累犯，但可作为量刑情节考虑。", False, "累犯 denied"),
        ("被告人有前科，可酌情从重处罚。", False, "a prior record is no recidivism: no art. 65"),
    ],
)
def test_article_65_is_cited_for_a_recidivist_only(prosecution, recidivist, why):
    record = drunk_driving(prosecution)
    cited = {article.number for article in criminal_basis(criminal_decision(record), record)}
    assert ("65" in cited) is recidivist, why
