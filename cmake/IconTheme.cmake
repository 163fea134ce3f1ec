# The app's icon set (resources/icons/lizard, see ui/theme/icontheme.h) as resources of a target,
# with its dark copy "lizard-dark" made here from the same files: each colour of the light set
# swapped for its dark counterpart, so that the two never drift apart. A new or changed icon
# reconfigures.

# Light colour -> dark colour. The light set draws only with these (and white on red).
set(LIZARD_ICON_DARK_COLOURS
    "#363b40" "#e3e6ea" # lines and shapes
    "#2b9348" "#5ccf7e" # go, run, add
    "#d63a3a" "#f26d6d" # stop, kill, delete
    "#2f7bd8" "#6ea8f5" # accent
)

function(lizard_add_icon_themes target)
    set(src ${PROJECT_SOURCE_DIR}/resources/icons)
    set(dark ${CMAKE_CURRENT_BINARY_DIR}/icons)
    file(GLOB icons CONFIGURE_DEPENDS RELATIVE ${src} ${src}/lizard/scalable/actions/*.svg)
    set(light_files ${src}/lizard/index.theme)
    set(dark_files "")
    foreach(rel lizard/index.theme ${icons})
        file(READ ${src}/${rel} text)
        list(APPEND light_files ${src}/${rel})
        set_property(DIRECTORY APPEND PROPERTY CMAKE_CONFIGURE_DEPENDS ${src}/${rel})
        set(pairs ${LIZARD_ICON_DARK_COLOURS})
        while(pairs)
            list(POP_FRONT pairs from to)
            string(REPLACE "${from}" "${to}" text "${text}")
        endwhile()
        string(REPLACE "Name=Lizard" "Name=Lizard Dark" text "${text}")
        string(REGEX REPLACE "^lizard/" "lizard-dark/" out "${rel}")
        # Written only when the text differs, so a reconfigure does not rebuild the resources.
        file(CONFIGURE OUTPUT ${dark}/${out} CONTENT "${text}" @ONLY)
        list(APPEND dark_files ${dark}/${out})
    endforeach()
    list(REMOVE_DUPLICATES light_files)
    qt_add_resources(${target} "lizard_icons" PREFIX "/icons" BASE ${src} FILES ${light_files})
    qt_add_resources(${target} "lizard_icons_dark" PREFIX "/icons" BASE ${dark} FILES ${dark_files})
endfunction()
