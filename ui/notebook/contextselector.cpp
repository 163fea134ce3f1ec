#include "ui/notebook/contextselector.h"

namespace lizard::ui::notebook {

using lizard::notebook::ContextChoice;
using lizard::notebook::NotebookKernel;

namespace {
const QStringList kLanguages = {QStringLiteral("python"), QStringLiteral("javascript"),
                                QStringLiteral("bash")};
}

ContextSelector::ContextSelector(NotebookKernel* kernel, QWidget* parent)
    : QComboBox(parent), m_kernel(kernel)
{
    setSizeAdjustPolicy(QComboBox::AdjustToContents);
    setToolTip(QStringLiteral("The code context this notebook runs in"));
    fill({});
    connect(this, &QComboBox::activated, this, &ContextSelector::choose);
    connect(kernel, &NotebookKernel::contextChanged, this, &ContextSelector::selectCurrent);
    refresh();
}

QString ContextSelector::labelFor(const ContextChoice& c)
{
    if (c.id.isEmpty() || c.id.startsWith(QLatin1String("default-")))
        return QStringLiteral("%1 (default context)").arg(c.language);
    QString label = QStringLiteral("%1 · %2").arg(c.language, c.id);
    if (!c.cwd.isEmpty())
        label += QStringLiteral(" · %1").arg(c.cwd);
    return label;
}

void ContextSelector::refresh()
{
    if (!m_kernel)
        return;
    QPointer<ContextSelector> self(this);
    m_kernel->listContexts([self](QList<ContextChoice> contexts, QString error) {
        if (!self)
            return;
        if (!error.isEmpty())
            emit self->errorOccurred(QStringLiteral("Listing contexts failed: %1").arg(error));
        else
            self->fill(contexts);
        emit self->refreshed();
    });
}

void ContextSelector::fill(const QList<ContextChoice>& listed)
{
    m_filling = true;
    clear();
    for (const QString& language : kLanguages) {
        const ContextChoice c{QString(), language, QString()};
        addItem(labelFor(c), QVariant::fromValue(QStringList{c.id, c.language, c.cwd}));
    }
    for (const ContextChoice& c : listed)
        addItem(labelFor(c), QVariant::fromValue(QStringList{c.id, c.language, c.cwd}));
    insertSeparator(count());
    for (const QString& language : kLanguages)
        addItem(QStringLiteral("New %1 context").arg(language), QStringLiteral("new:") + language);
    m_filling = false;
    selectCurrent();
}

QList<ContextChoice> ContextSelector::choices() const
{
    QList<ContextChoice> list;
    for (int i = 0; i < count(); ++i) {
        const QStringList parts = itemData(i).toStringList();
        if (parts.size() == 3)
            list.append({parts[0], parts[1], parts[2]});
    }
    return list;
}

void ContextSelector::selectCurrent()
{
    if (!m_kernel)
        return;
    const ContextChoice current = m_kernel->context();
    const bool isDefault = current.id.isEmpty() || current.id == "default-" + current.language;
    const QList<ContextChoice> list = choices();
    for (int i = 0; i < list.size(); ++i) {
        const bool same = isDefault ? list[i].id.isEmpty() && list[i].language == current.language
                                    : list[i].id == current.id;
        if (same) {
            setCurrentIndex(i);
            return;
        }
    }
    // Not listed (yet): show it anyway.
    insertItem(kLanguages.size(), labelFor(current),
               QVariant::fromValue(QStringList{current.id, current.language, current.cwd}));
    setCurrentIndex(int(kLanguages.size()));
}

void ContextSelector::choose(int index)
{
    if (!m_kernel || m_filling || index < 0 || index >= count())
        return;
    const QVariant value = itemData(index);
    if (value.typeId() == QMetaType::QString &&
        value.toString().startsWith(QLatin1String("new:"))) {
        const QString language = value.toString().mid(4);
        QPointer<ContextSelector> self(this);
        m_kernel->createContext(language, [self](ContextChoice created, QString error) {
            if (!self || !self->m_kernel)
                return;
            if (!error.isEmpty()) {
                emit self->errorOccurred(
                    QStringLiteral("Creating a context failed: %1").arg(error));
                self->selectCurrent();
                return;
            }
            self->m_kernel->selectContext(created);
            self->refresh();
        });
        return;
    }
    const QStringList parts = value.toStringList();
    if (parts.size() == 3)
        m_kernel->selectContext({parts[0], parts[1], parts[2]});
}

void ContextSelector::showPopup()
{
    refresh();
    QComboBox::showPopup();
}

} // namespace lizard::ui::notebook
