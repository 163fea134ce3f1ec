#include "ui/notebook/outputviewfactory.h"

#include "ui/notebook/erroroutputview.h"
#include "ui/notebook/interactiveoutputview.h"
#include "ui/notebook/richoutputview.h"
#include "ui/notebook/streamoutputview.h"
#include "ui/notebook/tableoutputview.h"

namespace lizard::ui::notebook {

using namespace lizard::notebook;

OutputView* createOutputView(const Output& output, QWidget* parent)
{
    if (const auto* stream = std::get_if<StreamOutput>(&output))
        return new StreamOutputView(*stream, parent);
    if (const auto* rich = std::get_if<RichOutput>(&output)) {
        // A DataFrame as data when the kernel sent it so; a malformed table shows its HTML.
        if (std::optional<TableInfo> table = TableOutputView::tableOf(*rich))
            return new TableOutputView(*rich, std::move(*table), parent);
        if (InteractiveOutputView::wants(*rich))
            return new InteractiveOutputView(*rich, parent);
        return new RichOutputView(*rich, parent);
    }
    return new ErrorOutputView(std::get<ErrorOutput>(output), parent);
}

} // namespace lizard::ui::notebook
